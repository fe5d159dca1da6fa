package triage

import "regexp"

// devTunnelRe finds a command that opens a tunnel from this machine to a
// relay service anyone can sign up for: VS Code's and Microsoft's dev
// tunnels, Cloudflare Tunnel and ngrok. Developers use them to share
// work; intruders use them for a way in that no firewall rule covers
// (T1572, T1219).
var devTunnelRe = regexp.MustCompile(`\bcode(-insiders)?(\.exe)?"?\s+tunnel\b|\bdevtunnel(\.exe)?"?\s+host\b|\bcloudflared(\.exe)?"?\s+(tunnel|service\s+install|access\s+(tcp|rdp|ssh))\b|\bngrok(\.exe)?"?\s+(tcp|http|tls|start)\b`)

// devTunnel returns the tunnel command in commands, or "".
func devTunnel(commands string) string {
	return devTunnelRe.FindString(commands)
}
