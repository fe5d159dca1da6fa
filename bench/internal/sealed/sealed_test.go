package sealed

import (
	"encoding/base64"
	"strings"
	"testing"

	"go.temporal.io/sdk/client"
)

// TestClientWithoutKeysIsTheBaseClient: no keys, no second client.
func TestClientWithoutKeysIsTheBaseClient(t *testing.T) {
	base, err := client.NewLazyClient(client.Options{HostPort: "127.0.0.1:1"})
	if err != nil {
		t.Fatal(err)
	}
	defer base.Close()
	c, closeIt, err := Client(base, "")
	if err != nil {
		t.Fatal(err)
	}
	defer closeIt()
	if c != base {
		t.Fatal("without keys the bench must use the dev server's own client")
	}
}

// TestClientRefusesBadKeys names the problem instead of running unsealed.
func TestClientRefusesBadKeys(t *testing.T) {
	base, err := client.NewLazyClient(client.Options{HostPort: "127.0.0.1:1"})
	if err != nil {
		t.Fatal(err)
	}
	defer base.Close()
	short := "k1:" + base64.StdEncoding.EncodeToString([]byte("too short"))
	if _, _, err := Client(base, short); err == nil || !strings.Contains(err.Error(), "payload keys") {
		t.Fatalf("want a payload keys error, got %v", err)
	}
}
