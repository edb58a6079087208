"""agents - what plays a suite game: every agent gets a proxy URL, a sessionId and a control token, nothing more."""
