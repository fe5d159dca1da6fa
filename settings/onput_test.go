package settings_test

import (
	"context"
	"slices"
	"testing"

	"github.com/vigil-soc/vigil/internal/testenv"
	"github.com/vigil-soc/vigil/settings"
)

// Caches built from a setting elsewhere hear of every write at once.
func TestOnPutTellsTheWrittenKey(t *testing.T) {
	svc := settings.NewService(testenv.OpenStore(t), nil)
	var heard []string
	svc.OnPut(func(key string) { heard = append(heard, key) })
	ctx := context.Background()
	if _, err := svc.Put(ctx, settings.KeyOutbound, []byte(`{}`), "alice"); err != nil {
		t.Fatal(err)
	}
	if _, err := svc.Put(ctx, settings.KeyGeneral, []byte(`{}`), "alice"); err != nil {
		t.Fatal(err)
	}
	if want := []string{settings.KeyOutbound, settings.KeyGeneral}; !slices.Equal(heard, want) {
		t.Fatalf("heard %v, want %v", heard, want)
	}
}
