package triage

import "testing"

// Reputation and block-list lookups pack hashes and addresses into long
// random labels, the shape of DNS tunnelling: queries under such a zone
// close the alert, while the same shape to any other domain, or a lookup
// zone next to a domain outside it, is still a tunnel.
func TestReputationLookupsAreNotADNSTunnel(t *testing.T) {
	lookups := map[string]any{
		"rule_name": "DNS tunnelling suspected", "src_ip": "10.20.4.17", "query_types": "TXT", "distinct_subdomains": 1840,
		"domain": "sophosxl.net",
		"sample_queries": []any{
			"4c2a9e1f7b3d5a8c0e6f2b4d9a1c3e5f7b9d0a2c.f.sophosxl.net",
			"9e7d5b3a1f0c8e6d4b2a0f9e7d5c3b1a9f8e6d4c.f.sophosxl.net",
		},
	}
	elsewhere := withFields(lookups, map[string]any{"domain": "cdn-sync-metrics.top", "sample_queries": []any{
		"q8v2kx7nj3t0bz8wr1ep5hla6cyd4nug2fso7ik.cdn-sync-metrics.top",
		"z3x8n0ab6lw2ty9ck4ve1jq7hmz5rsg0ud8fo3.cdn-sync-metrics.top",
	}})
	mixed := withFields(lookups, map[string]any{"sample_queries": []any{
		"4c2a9e1f7b3d5a8c0e6f2b4d9a1c3e5f7b9d0a2c.f.sophosxl.net",
		"z3x8n0ab6lw2ty9ck4ve1jq7hmz5rsg0ud8fo3.cdn-sync-metrics.top",
	}})
	checkFires(t, "network.reputation_lookups", "alert", "high", []fireCase{
		{"lookups under a reputation zone", lookups, true},
		{"the same shape to another domain", elsewhere, false},
		{"a lookup zone beside another domain", mixed, false},
	})
	checkFires(t, "network.dns_tunnel", "alert", "high", []fireCase{
		{"lookups under a reputation zone", lookups, false},
		{"the same shape to another domain", elsewhere, true},
	})
}

// The product's own tunnelling and exfiltration labels on block-list
// lookups are explained by the lookup service: the alert closes.
func TestReputationLookupsExplainTheTunnelLabels(t *testing.T) {
	lookups := map[string]any{
		"threat_class": "DNS Tunneling", "category": "Data Exfiltration", "threat_indicator": "zen.spamhaus.org",
		"domain": "zen.spamhaus.org", "distinct_subdomains": 6312, "query_types": "A",
		"sample_queries": []any{"2.0.113.203.zen.spamhaus.org", "17.44.51.198.zen.spamhaus.org"},
	}
	checkClosed(t, "alert", []closeCase{
		{"block-list lookups labelled tunnelling", lookups, true},
		{"the same labels on another domain", withFields(lookups, map[string]any{"domain": "cdn-sync-metrics.top", "threat_indicator": "cdn-sync-metrics.top",
			"sample_queries": []any{"q8v2kx7nj3t0bz8wr1ep5hla6cyd4nug2fso7ik.cdn-sync-metrics.top"}}), false},
	})
}
