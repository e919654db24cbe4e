//! The pages in headless Chromium.
