package sealed

import (
	"context"
	"encoding/base64"
	"strings"
	"testing"

	enumspb "go.temporal.io/api/enums/v1"
	"go.temporal.io/sdk/client"

	"github.com/vigil-soc/vigil/internal/testenv"
	"github.com/vigil-soc/vigil/payloadcodec"
)

// TestClientWithoutCodecIsTheBaseClient: no keys, no codec, no second
// client.
func TestClientWithoutCodecIsTheBaseClient(t *testing.T) {
	codec, err := Codec("")
	if err != nil || codec != nil {
		t.Fatalf("no keys: want no codec and no error, got %v, %v", codec, err)
	}
	base, err := client.NewLazyClient(client.Options{HostPort: "127.0.0.1:1"})
	if err != nil {
		t.Fatal(err)
	}
	defer base.Close()
	c, closeIt, err := Client(base, codec)
	if err != nil {
		t.Fatal(err)
	}
	defer closeIt()
	if c != base {
		t.Fatal("without keys the bench must use the dev server's own client")
	}
}

// TestCodecRefusesBadKeys names the flag instead of running unsealed.
func TestCodecRefusesBadKeys(t *testing.T) {
	short := "k1:" + base64.StdEncoding.EncodeToString([]byte("too short"))
	if _, err := Codec(short); err == nil || !strings.Contains(err.Error(), "-payload-keys") {
		t.Fatalf("want a -payload-keys error, got %v", err)
	}
}

// TestClientWithCodecSealsWhatReachesTheEngine: a run Vigil's client
// starts reaches the dev server sealed, and the baselines' client is left
// bare.
func TestClientWithCodecSealsWhatReachesTheEngine(t *testing.T) {
	codec, err := Codec("k1:" + base64.StdEncoding.EncodeToString(make([]byte, 32)))
	if err != nil || codec == nil {
		t.Fatalf("want a codec, got %v, %v", codec, err)
	}
	ctx := context.Background()
	tmp, err := testenv.StartTemporal(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer tmp.Stop()
	c, closeIt, err := Client(tmp.Client, codec)
	if err != nil {
		t.Fatal(err)
	}
	defer closeIt()
	encodingOfInput := func(c client.Client, id string) string {
		t.Helper()
		opts := client.StartWorkflowOptions{ID: id, TaskQueue: "sealed-test"}
		if _, err := c.ExecuteWorkflow(ctx, opts, "NoWorkerRuns", "alert payload"); err != nil {
			t.Fatal(err)
		}
		ev, err := tmp.Client.GetWorkflowHistory(ctx, id, "", false, enumspb.HISTORY_EVENT_FILTER_TYPE_ALL_EVENT).Next()
		if err != nil {
			t.Fatal(err)
		}
		return string(ev.GetWorkflowExecutionStartedEventAttributes().GetInput().GetPayloads()[0].GetMetadata()["encoding"])
	}
	if enc := encodingOfInput(c, "sealed"); enc != payloadcodec.Encoding {
		t.Fatalf("Vigil's client sent %q, want %q", enc, payloadcodec.Encoding)
	}
	if enc := encodingOfInput(tmp.Client, "bare"); enc == payloadcodec.Encoding {
		t.Fatal("the baselines' client must stay bare")
	}
}
