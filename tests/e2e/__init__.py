"""e2e - the built site in real Chromium (a package, so its Playwright fixtures end with it)."""
