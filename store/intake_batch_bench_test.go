package store_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/vigil-soc/vigil/internal/testenv"
	"github.com/vigil-soc/vigil/store"
)

// BenchmarkAlertBatch times one batch of signed alerts, each with its own
// upstream id (so the dedup look-up runs), written as the webhook intake's
// group commit writes them: `go test ./store -run x -bench AlertBatch`
// (PostgreSQL with TEST_DATABASE_URL, else SQLite). ns/op is per batch;
// alerts/s is what one committer sustains.
func BenchmarkAlertBatch(b *testing.B) {
	st := testenv.OpenStore(b)
	ctx := context.Background()
	for _, size := range []int{1, 16, 64, 128} {
		b.Run(fmt.Sprintf("size=%d", size), func(b *testing.B) {
			seq := 0
			for b.Loop() {
				batch := make([]store.AlertIncident, size)
				for i := range batch {
					seq++
					id := fmt.Sprintf("bench-%d-%d-%d", size, seq, time.Now().UnixNano())
					batch[i] = store.AlertIncident{
						NewIncident: store.NewIncident{Title: "alert " + id, IncidentType: "malware", Source: "edr", Severity: "high",
							RawData: map[string]any{"host": "fin-ws-042", "detection": "Ransomware.Conti", "id": id}},
						ExternalSource: "edr", ExternalID: id, DedupWindow: 10 * time.Minute,
						Replay: &store.Replay{Key: "sig-" + id, ExpiresAt: time.Now().Add(time.Hour)},
					}
				}
				for _, o := range st.CreateIncidentsFromAlerts(ctx, batch) {
					if o.Err != nil {
						b.Fatal(o.Err)
					}
				}
			}
			b.ReportMetric(float64(size*b.N)/b.Elapsed().Seconds(), "alerts/s")
		})
	}
}
