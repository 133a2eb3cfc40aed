package kernel

// SandboxPath is where a control-API page of a world is served, relative
// to the sandbox's address (rest starts with "/"): the default world's at
// /_sandbox/…, any other world's under /_sandbox/worlds/{id}/…, so a link
// in an email or an answer opens the world it was made in.
func SandboxPath(worldID, rest string) string {
	if worldID == "" || worldID == "default" {
		return "/_sandbox" + rest
	}
	return "/_sandbox/worlds/" + worldID + rest
}
