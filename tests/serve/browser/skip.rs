//! Without Chromium a browser test skips, but fails under CI.

use super::*;

/// Runs this test binary again on one browser test with no Chromium to be
/// found (an empty PATH, no `$CHROMIUM`), `CI` as given.
fn run_without_chromium(ci: Option<&str>) -> std::process::Output {
    let mut cmd = Command::new(std::env::current_exe().expect("test binary"));
    cmd.args([
        "--exact",
        "browser::play::play_a_4x4_game_to_its_end_by_clicking_and_keys",
        "--test-threads=1",
    ])
    .env("PATH", "")
    .env_remove("CHROMIUM")
    .env_remove("CI");
    if let Some(ci) = ci {
        cmd.env("CI", ci);
    }
    cmd.output().expect("run the test binary")
}

#[test]
fn without_chromium_a_browser_test_skips_but_fails_under_ci() {
    // Run as `cargo test` runs it, output captured: the skipped line
    // still reaches the terminal (stderr), naming the test.
    let out = run_without_chromium(None);
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stdout}{stderr}");
    assert_eq!(stderr.matches("skipped:").count(), 1, "{stderr}");
    assert!(
        stderr.contains(
            "skipped: browser::play::play_a_4x4_game_to_its_end_by_clicking_and_keys: no chromium found"
        ),
        "{stderr}"
    );
    assert!(stdout.contains("1 passed"), "{stdout}");

    let out = run_without_chromium(Some("true"));
    let all = String::from_utf8_lossy(&out.stdout) + String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success(), "{all}");
    assert!(all.contains("CI is set but no chromium"), "{all}");
    assert!(!all.contains("skipped:"), "{all}");
}
