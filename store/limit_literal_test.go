package store_test

import (
	"context"
	"strings"
	"testing"

	"gorm.io/gorm"

	"github.com/vigil-soc/vigil/store"
)

// preparedPlans is what PostgreSQL reports of one prepared statement.
type preparedPlans struct {
	Statement            string
	GenericPlans, Custom int64
}

// plansOf runs page eight times on one connection and reports the prepared
// statement it left there.
func plansOf(t *testing.T, st *store.Store, marker string, page func(*gorm.DB) *gorm.DB) preparedPlans {
	t.Helper()
	var got preparedPlans
	err := st.DB().WithContext(context.Background()).Connection(func(conn *gorm.DB) error {
		for range 8 {
			if err := page(conn.Session(&gorm.Session{NewDB: true})).Error; err != nil {
				return err
			}
		}
		return conn.Raw(`SELECT statement, generic_plans, custom_plans AS custom FROM pg_prepared_statements
			WHERE statement LIKE ? ORDER BY prepare_time DESC LIMIT 1`, "%"+marker+"%").Scan(&got).Error
	})
	if err != nil {
		t.Fatal(err)
	}
	if got.Statement == "" {
		t.Fatalf("no prepared statement containing %q", marker)
	}
	return got
}

// A page whose only parameters would be its LIMIT and OFFSET reaches
// PostgreSQL with them written out, so the server plans it once per
// connection instead of at every execution; a page with other parameters
// keeps its LIMIT a parameter, which lets the server settle on one plan.
func TestPostgresPagesArePlannedOncePerConnection(t *testing.T) {
	st := openPostgres(t, "the planning under test is PostgreSQL's")
	var ids []string
	bare := plansOf(t, st, "updated_at DESC, id ASC", func(db *gorm.DB) *gorm.DB {
		return db.Model(&store.Incident{}).Select("id").Order("updated_at DESC, id ASC").Limit(20).Offset(40).Find(&ids)
	})
	if !strings.Contains(bare.Statement, "LIMIT 20 OFFSET 40") || bare.Custom != 0 || bare.GenericPlans < 8 {
		t.Errorf("unfiltered page: %+v; want LIMIT 20 OFFSET 40 in the text and every execution on the plan made once", bare)
	}
	filtered := plansOf(t, st, "updated_at DESC, id DESC", func(db *gorm.DB) *gorm.DB {
		return db.Model(&store.Incident{}).Select("id").Where("status = ?", "open").
			Order("updated_at DESC, id DESC").Limit(20).Offset(40).Find(&ids)
	})
	if !strings.Contains(filtered.Statement, "LIMIT $2 OFFSET $3") {
		t.Errorf("filtered page: %+v; want its LIMIT and OFFSET left as parameters", filtered)
	}
}
