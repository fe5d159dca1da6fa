package triage

import "testing"

// wbadmin keeping the newest copies or removing the oldest is a retention
// job; the catalog, or backups deleted with none kept, is wholesale. A
// shadow storage limit that leaves room for the copies keeps them; one
// shrunk to a few hundred megabytes purges them.
func TestWbadminRetentionIsScoped(t *testing.T) {
	for cmd, wholesale := range map[string]bool{
		`wbadmin.exe delete systemstatebackup -keepversions:7 -quiet`:   false,
		`wbadmin delete backup -deleteoldest -quiet`:                    false,
		`wbadmin delete systemstatebackup -keepversions:0 -quiet`:       true,
		`wbadmin delete systemstatebackup -quiet`:                       true,
		`wbadmin delete catalog -quiet`:                                 true,
		`vssadmin delete shadows /for=e: /oldest /quiet`:                false,
		`vssadmin delete shadows /all /quiet`:                           true,
		`vssadmin.exe resize shadowstorage /for=d: /on=d: /maxsize=20%`: false,
		`vssadmin resize shadowstorage /for=c: /on=c: /maxsize=50gb`:    false,
		`vssadmin resize shadowstorage /for=c: /on=c: /maxsize=401mb`:   true,
		`vssadmin resize shadowstorage /for=c: /on=c: /maxsize=1%`:      true,
		`vssadmin resize shadowstorage /for=c: /on=c: /maxsize=401mb & vssadmin resize shadowstorage /for=c: /on=c: /maxsize=unbounded`: true,
	} {
		found, got := shadowCopyDeletion(cmd)
		if found == "" || got != wholesale {
			t.Errorf("%s: found %q, wholesale %v, want %v", cmd, found, got, wholesale)
		}
	}
}

// A family the description names in a sentence about the technique in
// general is the vendor's background, not the detection; the detection's
// name, or a description that reports what happened, still names it.
func TestDescriptionBackgroundDoesNotNameAFamily(t *testing.T) {
	background := newDoc(map[string]any{
		"name":        "WbadminDeleteBackup",
		"description": "Wbadmin was used to delete backups. Adversaries delete backups to inhibit recovery before deploying ransomware.",
	})
	if name, _ := firstDetection(detectionTexts(background), ransomwareTerms); name != "" {
		t.Errorf("background sentence read as a ransomware detection: %q", name)
	}
	for _, raw := range []map[string]any{
		{"title": "Ransomware behaviour detected", "description": "Files were renamed in bulk."},
		{"title": "Suspicious activity", "description": "LockBit ransomware encrypted files on the share."},
	} {
		if name, _ := firstDetection(detectionTexts(newDoc(raw)), ransomwareTerms); name == "" {
			t.Errorf("%v: ransomware not read", raw)
		}
	}
}
