package intel

import (
	"context"
	"fmt"
	"time"

	"gorm.io/gorm/clause"

	"github.com/vigil-soc/vigil/store"
	"github.com/vigil-soc/vigil/triage"
)

// cacheEntry is one row of intel_cache: the last reputation fetched for an
// indicator and until when it may be served without asking the source.
type cacheEntry struct {
	IndicatorType  string `gorm:"primaryKey"`
	IndicatorValue string `gorm:"primaryKey"`
	Reputation     store.JSON[triage.Reputation]
	FetchedAt      time.Time
	ExpiresAt      time.Time
}

// TableName tells GORM the table created by migration 00008.
func (cacheEntry) TableName() string { return "intel_cache" }

// cacheKey identifies an indicator.
type cacheKey struct{ typ, value string }

// readChunk bounds the values in one IN list, far below every driver's
// parameter limit.
const readChunk = 500

// readCache returns the cached rows for keys, fresh or not.
func readCache(ctx context.Context, st *store.Store, keys []cacheKey) (map[cacheKey]cacheEntry, error) {
	byType := map[string][]string{}
	var types []string
	for _, k := range keys {
		if _, ok := byType[k.typ]; !ok {
			types = append(types, k.typ)
		}
		byType[k.typ] = append(byType[k.typ], k.value)
	}
	out := make(map[cacheKey]cacheEntry, len(keys))
	for _, typ := range types {
		values := byType[typ]
		for start := 0; start < len(values); start += readChunk {
			var rows []cacheEntry
			err := st.DB().WithContext(ctx).
				Where("indicator_type = ? AND indicator_value IN ?", typ, values[start:min(start+readChunk, len(values))]).
				Find(&rows).Error
			if err != nil {
				return nil, fmt.Errorf("read intel cache: %w", err)
			}
			for _, r := range rows {
				out[cacheKey{r.IndicatorType, r.IndicatorValue}] = r
			}
		}
	}
	return out, nil
}

// writeCache upserts rows: a refreshed indicator replaces its stale row.
func writeCache(ctx context.Context, st *store.Store, rows []cacheEntry) error {
	if len(rows) == 0 {
		return nil
	}
	err := st.DB().WithContext(ctx).
		Clauses(clause.OnConflict{
			Columns:   []clause.Column{{Name: "indicator_type"}, {Name: "indicator_value"}},
			DoUpdates: clause.AssignmentColumns([]string{"reputation", "fetched_at", "expires_at"}),
		}).
		CreateInBatches(rows, 100).Error
	if err != nil {
		return fmt.Errorf("write intel cache: %w", err)
	}
	return nil
}

func countCache(ctx context.Context, st *store.Store) (int64, error) {
	var n int64
	if err := st.DB().WithContext(ctx).Model(&cacheEntry{}).Count(&n).Error; err != nil {
		return 0, fmt.Errorf("count intel cache: %w", err)
	}
	return n, nil
}
