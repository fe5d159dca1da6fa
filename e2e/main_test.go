package e2e

import (
	"fmt"
	"os"
	"testing"

	"github.com/vigil-soc/vigil/internal/testenv"
)

// databaseURL is the store of the shared vigil serve.
var databaseURL string

func TestMain(m *testing.M) { os.Exit(runMain(m)) }

func runMain(m *testing.M) int {
	dir, err := os.MkdirTemp("", "vigil-e2e-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer os.RemoveAll(dir)
	url, cleanup, err := testenv.NewDatabaseURL(dir)
	if err != nil {
		fmt.Fprintln(os.Stderr, "database:", err)
		return 1
	}
	defer cleanup()
	databaseURL = url
	code := m.Run()
	if shared.stop != nil {
		shared.stop()
	}
	return code
}
