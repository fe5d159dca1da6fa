// Package sealed gives the benchmarks a Temporal client for Vigil that
// seals payloads as VIGIL_PAYLOAD_KEYS makes Vigil do, beside the bare
// client the baselines keep.
package sealed

import (
	"fmt"

	"go.temporal.io/sdk/client"

	"github.com/vigil-soc/vigil/app"
	"github.com/vigil-soc/vigil/internal/testenv"
	"github.com/vigil-soc/vigil/payloadcodec"
)

// Codec reads a bench's -payload-keys (id:base64key,..., as
// VIGIL_PAYLOAD_KEYS) before anything starts: nil when keys is empty.
func Codec(keys string) (*payloadcodec.Codec, error) {
	codec, err := app.Config{PayloadKeys: keys}.PayloadCodec()
	if err != nil {
		return nil, fmt.Errorf("-payload-keys: %w", err)
	}
	return codec, nil
}

// Client is the client Vigil's API, dispatcher and worker use in a bench:
// base itself when codec is nil, else one sharing base's connection that
// seals every payload with codec. The bare baselines keep base, so a ratio
// measured with a codec shows what encryption costs Vigil beside an
// unencrypted engine. The returned func closes what Client opened.
func Client(base client.Client, codec *payloadcodec.Codec) (client.Client, func(), error) {
	if codec == nil {
		return base, func() {}, nil
	}
	c, err := client.NewClientFromExisting(base, client.Options{
		Namespace:        "default",
		DataConverter:    payloadcodec.DataConverter(codec),
		FailureConverter: payloadcodec.FailureConverter(codec),
		Logger:           testenv.TemporalLogger(),
	})
	if err != nil {
		return nil, nil, fmt.Errorf("temporal client with payload codec: %w", err)
	}
	return c, c.Close, nil
}
