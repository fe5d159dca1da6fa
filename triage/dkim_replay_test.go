package triage

import "testing"

// A brand's own signed message that its SPF does not vouch for was sent
// again through someone else's relay: it is weighed as such and earns no
// credit as an established, aligned sender.
func TestBrandSignatureReplayed(t *testing.T) {
	replay := EmailFields{Sender: "no-reply@accounts.google.com", SenderDomain: "accounts.google.com", SenderBrand: "google",
		SPF: "fail", DKIM: "pass", DMARC: "pass", AuthAligned: true, SenderAgeDays: -1, LinksOnSenderDomain: true}
	got := firedRules(kindPhishing, Fields{Email: replay})
	if !got["email.brand_signature_replayed"] || got["email.established_aligned_sender"] || got["email.aligned_sender_own_links"] {
		t.Errorf("a replayed brand signature fired %v", got)
	}
	genuine := replay
	genuine.SPF = "pass"
	got = firedRules(kindPhishing, Fields{Email: genuine})
	if got["email.brand_signature_replayed"] || !got["email.established_aligned_sender"] {
		t.Errorf("the brand's own mail fired %v", got)
	}
}
