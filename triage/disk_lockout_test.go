package triage

import "testing"

// Removing a BitLocker volume's key protectors is hostile whoever runs it;
// turning BitLocker on, or reading its status, is not.
func TestDiskLockoutIsHostile(t *testing.T) {
	for cmd, want := range map[string]bool{
		`manage-bde.exe -protectors -delete C: -type TPM`: true,
		`powershell -c "Get-BitLockerVolume | % { Remove-BitLockerKeyProtector -MountPoint $_.MountPoint -KeyProtectorId $_.KeyProtector[0].KeyProtectorId }"`: true,
		`manage-bde.exe -on C: -RecoveryPassword -SkipHardwareTest`: false,
		`manage-bde.exe -status`:                                    false,
	} {
		raw := map[string]any{"process": map[string]any{"name": "manage-bde.exe", "command_line": cmd}, "hostname": "srv-1"}
		b := normalize(Incident{IncidentType: "malware", RawData: raw}, Indicators{}).Endpoint.Behaviour
		if b.DiskLockout != want || (b.Hostile != "") != want {
			t.Errorf("%s: lockout %v, hostile %q", cmd, b.DiskLockout, b.Hostile)
		}
	}
	if got := firedRules(kindMalware, Fields{Endpoint: EndpointFields{Behaviour: EndpointBehaviour{DiskLockout: true}}}); !got["endpoint.disk_lockout"] {
		t.Errorf("a disk lockout fired %v", got)
	}
}
