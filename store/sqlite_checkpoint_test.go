package store_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/vigil-soc/vigil/store"
)

// With SQLite's own checkpoint off, committed pages reach the database
// file only through the store's background checkpoint: the file grows
// after the writes, without any commit waiting for it.
func TestSQLiteWriteAheadLogIsCheckpointedInTheBackground(t *testing.T) {
	path := filepath.Join(t.TempDir(), "vigil.db")
	st, err := store.Open(context.Background(), path, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	db := st.DB()
	var auto int
	if err := db.Raw("PRAGMA wal_autocheckpoint").Scan(&auto).Error; err != nil || auto != 0 {
		t.Fatalf("wal_autocheckpoint = %d (%v), want 0", auto, err)
	}
	if err := db.Exec("CREATE TABLE filler (body TEXT)").Error; err != nil {
		t.Fatal(err)
	}
	size := func() int64 {
		fi, err := os.Stat(path)
		if err != nil {
			t.Fatal(err)
		}
		return fi.Size()
	}
	before := size()
	row := strings.Repeat("x", 4000)
	for i := 0; i < 500; i++ {
		if err := db.Exec("INSERT INTO filler (body) VALUES (?)", row).Error; err != nil {
			t.Fatal(err)
		}
	}
	deadline := time.Now().Add(5 * time.Second)
	for size() < before+1_000_000 {
		if time.Now().After(deadline) {
			t.Fatalf("database file still %d bytes (was %d) after 2 MB of commits: nothing checkpointed", size(), before)
		}
		time.Sleep(50 * time.Millisecond)
	}
}
