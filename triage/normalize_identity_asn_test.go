package triage

import "testing"

func TestHostingASNReadsTheNumberWithOrWithoutItsPrefix(t *testing.T) {
	for asn, want := range map[string]bool{
		"14061": true, "AS14061": true, "as14061": true,
		"AS14061 DigitalOcean, LLC": true, "14061 (DigitalOcean)": true,
		"15169": false, "AS8075": false, "": false, "DigitalOcean": false, "AS15169 Google LLC": false,
	} {
		if got := hostingASN(asn); got != want {
			t.Errorf("hostingASN(%q) = %v, want %v", asn, got, want)
		}
	}
}

// A log search's CloudTrail record gives the caller's network as an
// enrichment field beside the record: a call from a hosting provider's
// address is from a rentable server, one from a home broadband network is
// not.
func TestCloudCallerNetworkIsReadFromTheSearchsEnrichment(t *testing.T) {
	call := logSearch("AWS - IAM policy attached", map[string]any{
		"host": "aws-cloudtrail-org", "source": "s3://trail/AWSLogs", "sourcetype": "aws:cloudtrail", "EventCode": "AttachUserPolicy",
		"_raw":      `{"eventSource":"iam.amazonaws.com","eventName":"AttachUserPolicy","userIdentity":{"type":"AssumedRole","arn":"arn:aws:sts::418273650912:assumed-role/Admin/ana"}}`,
		"eventName": "AttachUserPolicy", "src_ip": "146.190.118.52", "src_ip_asn": "AS14061 DigitalOcean, LLC",
	})
	home := withResult(call, map[string]any{"src_ip": "73.22.10.4", "src_ip_asn": "AS7922 Comcast Cable Communications, LLC"})
	checkFires(t, "cloud.anonymized_or_hosting_caller", "alert", "medium", []fireCase{
		{"a hosting provider's address", call, true},
		{"a home broadband address", home, false},
	})
}
