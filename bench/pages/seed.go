package main

import (
	"context"
	"fmt"
	"time"

	"github.com/vigil-soc/vigil/store"
)

// seedChunk is how many incidents one statement generates: the rows are
// made by PostgreSQL itself (generate_series), so a million take one
// round trip per chunk.
const seedChunk = 100_000

// seedIncidents writes incidents numbered INC-2000-…, newest first in
// number order, spread over two years: types and severities in the
// proportions of a real queue, all but the newest 5 % resolved.
const seedIncidents = `
INSERT INTO incidents (id, incident_number, number_year, number_seq, incident_type, severity, severity_rank,
    status, source, title, raw_data, recommended_actions, created_by, created_at, updated_at, triaged_at)
SELECT md5('inc' || g)::uuid::text, 'INC-2000-' || lpad(g::text, 7, '0'), 2000, g,
    (ARRAY['phishing','phishing','phishing','malware','malware','suspicious login','suspicious login',
           'data exfiltration','policy violation','lateral movement'])[1 + g % 10],
    s.sev, s.rank,
    CASE WHEN g > $3 THEN 'resolved' WHEN g % 3 = 0 THEN 'triaged' ELSE 'open' END,
    'seed', 'Seeded alert ' || g,
    jsonb_build_object('alert_id', 'a-' || g, 'host_id', 'host-' || (g % 5000), 'sender', 'user' || (g % 997) || '@example.com'),
    '[]', 'seed', now() - g * interval '1 minute', now() - g * interval '1 minute',
    CASE WHEN g % 3 = 0 OR g > $3 THEN now() - g * interval '1 minute' + interval '2 minutes' END
FROM generate_series($1::bigint, $2::bigint) g,
LATERAL (SELECT (ARRAY['low','low','low','medium','medium','medium','medium','high','high','critical'])[1 + (g * 7) % 10] AS sev) v,
LATERAL (SELECT v.sev, array_position(ARRAY['low','medium','high','critical'], v.sev) AS rank) s`

// seedAudit gives each incident the audit event of its creation, so the
// incident page's timeline reads its entries from a trail as long as the
// incident table.
const seedAudit = `
INSERT INTO audit_events (id, occurred_at, actor, auth_method, action, target_type, target_id, outcome, status, client_ip)
SELECT md5('audit' || g)::uuid::text, now() - g * interval '1 minute', 'seed', 'api_key', 'incident.create', 'incident',
    md5('inc' || g)::uuid::text, 'success', 201, '127.0.0.1'
FROM generate_series($1::bigint, $2::bigint) g`

func seed(ctx context.Context, st *store.Store, total int) (time.Duration, error) {
	db, err := st.SQL()
	if err != nil {
		return 0, err
	}
	start := time.Now()
	open := total / 20
	// The trigger-kept totals count each multi-row statement once per
	// status, severity and type, so the bulk load keeps them as it goes.
	for first := 1; first <= total; first += seedChunk {
		last := min(first+seedChunk-1, total)
		if _, err := db.ExecContext(ctx, seedIncidents, first, last, open); err != nil {
			return 0, fmt.Errorf("seed incidents %d-%d: %w", first, last, err)
		}
		if _, err := db.ExecContext(ctx, seedAudit, first, last); err != nil {
			return 0, fmt.Errorf("seed audit %d-%d: %w", first, last, err)
		}
		progress("seeded %d", last)
	}
	for _, q := range []string{"VACUUM ANALYZE incidents", "VACUUM ANALYZE incident_counts", "VACUUM ANALYZE audit_events"} {
		if _, err := db.ExecContext(ctx, q); err != nil {
			return 0, fmt.Errorf("%s: %w", q, err)
		}
	}
	return time.Since(start), nil
}
