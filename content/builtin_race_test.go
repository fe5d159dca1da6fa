package content_test

import (
	"context"
	"sync"
	"testing"

	"github.com/vigil-soc/vigil/content"
	"github.com/vigil-soc/vigil/internal/testenv"
)

// Two processes starting together both install the built-in content;
// neither fails and it is installed once.
func TestBuiltinInstallsOnceWhenStartsRace(t *testing.T) {
	st := testenv.OpenStore(t)
	var wg sync.WaitGroup
	errs := make([]error, 2)
	for i := range errs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, errs[i] = content.EnsureBuiltin(context.Background(), st, "devel")
		}()
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	items, err := st.PackageItems(context.Background(), content.BuiltinName)
	if err != nil || len(items) != len(content.Builtin().Contents) {
		t.Fatalf("%d items recorded, want %d (%v)", len(items), len(content.Builtin().Contents), err)
	}
}
