package triage

import "testing"

// An interpreter that decodes or decompresses the code it runs from its
// own command line hides it; one running a script file, or printing
// decoded data, does not.
func TestPackedInlineScript(t *testing.T) {
	proc := func(name, cmd string) map[string]any {
		return map[string]any{"process_name": name, "process_cmdline": cmd, "parent_name": "Code Helper (Plugin)"}
	}
	checkFires(t, "endpoint.packed_inline_script", "malware", "medium", []fireCase{
		{"python exec of a zlib blob", proc("python3", "python3 -c import base64,zlib;exec(zlib.decompress(base64.b64decode('eNp1kFFLwzAUhf9K3+KgSS0Oho486F')))"), true},
		{"node eval of a base64 buffer", proc("node", "node -e eval(Buffer.from('Y29uc29sZS5sb2coMSk=','base64').toString())"), true},
		{"python running a file", proc("python3", "python3 /Users/dev/.vscode/extensions/ms-python/pythonFiles/printEnvVariables.py"), false},
		{"python printing decoded data", proc("python3", "python3 -c import base64;print(base64.b64decode('aGk='))"), false},
	})
}
