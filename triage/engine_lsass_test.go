package triage

import "testing"

// Defender's engine opening LSASS from its platform folder is a scan; the
// same name from a user's folder, or LSASS written out by a dump tool
// alongside, is credential theft.
func TestSecurityEngineReadingLsassIsAScan(t *testing.T) {
	access := map[string]any{
		"EventID": 10, "EventDescription": "Process accessed", "SourceImage": `C:\ProgramData\Microsoft\Windows Defender\Platform\4.18.24030.9-0\MsMpEng.exe`,
		"TargetImage": `C:\Windows\system32\lsass.exe`, "GrantedAccess": "0x1410", "RuleName": "technique_id=T1003.001,technique_name=LSASS Memory",
	}
	checkFires(t, "endpoint.security_engine_reads_lsass", "malware", "high", []fireCase{
		{"the engine in its platform folder", access, true},
		{"the engine's name in a user's folder", withFields(access, map[string]any{"SourceImage": `C:\Users\Public\MsMpEng.exe`}), false},
		{"a dump written alongside", withFields(access, map[string]any{"TargetFilename": `C:\Windows\Temp\lsass.dmp`}), false},
	})
	checkFires(t, "endpoint.credential_dump_confirmed", "malware", "high", []fireCase{
		{"the engine in its platform folder", access, false},
		{"the engine's name in a user's folder", withFields(access, map[string]any{"SourceImage": `C:\Users\Public\MsMpEng.exe`}), true},
	})
}
