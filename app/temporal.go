package app

import (
	"context"
	"fmt"
	"log/slog"
	"sync"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/uber-go/tally/v4"
	tallyprom "github.com/uber-go/tally/v4/prometheus"
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/contrib/envconfig"
	sdktally "go.temporal.io/sdk/contrib/tally"
	tlog "go.temporal.io/sdk/log"

	"github.com/vigil-soc/vigil/payloadcodec"
)

// loadTemporalProfile reads the Temporal client profile the SDK's
// environment configuration describes: the TOML file named by
// TEMPORAL_CONFIG_FILE (or the user's Temporal config), the profile named
// by TEMPORAL_PROFILE, then TEMPORAL_ADDRESS, TEMPORAL_NAMESPACE,
// TEMPORAL_API_KEY, TEMPORAL_TLS* and TEMPORAL_GRPC_META_* on top.
func loadTemporalProfile() (envconfig.ClientConfigProfile, error) {
	prof, err := envconfig.LoadClientConfigProfile(envconfig.LoadClientConfigProfileOptions{})
	if err != nil {
		return prof, fmt.Errorf("temporal client configuration: %w", err)
	}
	return prof, nil
}

// TemporalClientOptions builds the options Vigil dials Temporal with: the
// profile's TLS, API key and gRPC headers, cfg's address and namespace,
// the payload codec when VIGIL_PAYLOAD_KEYS is set, the process logger and
// the SDK metrics on the default Prometheus registry.
func TemporalClientOptions(cfg Config, log *slog.Logger) (client.Options, error) {
	prof := cfg.TemporalProfile
	prof.Address, prof.Namespace = cfg.TemporalAddress, cfg.TemporalNamespace
	opts, err := prof.ToClientOptions(envconfig.ToClientOptionsRequest{})
	if err != nil {
		return opts, fmt.Errorf("temporal client configuration: %w", err)
	}
	codec, err := cfg.PayloadCodec()
	if err != nil {
		return opts, err
	}
	opts.DataConverter = payloadcodec.DataConverter(codec)
	opts.FailureConverter = payloadcodec.FailureConverter(codec)
	opts.Logger = tlog.NewStructuredLogger(log)
	opts.MetricsHandler = SDKMetrics()
	opts.Interceptors = append(opts.Interceptors, &startLogger{log: log})
	return opts, nil
}

// PayloadCodec builds the payload codec from VIGIL_PAYLOAD_KEYS; nil when
// no keys are set (payloads go to Temporal unencrypted).
func (c Config) PayloadCodec() (*payloadcodec.Codec, error) {
	keys, err := payloadcodec.ParseKeyring(c.PayloadKeys)
	if err != nil || keys == nil {
		return nil, err
	}
	return payloadcodec.NewCodec(keys), nil
}

// DialTemporal connects to Temporal, retrying until it answers or ctx ends,
// so Vigil can start while the server is still coming up.
func DialTemporal(ctx context.Context, cfg Config, log *slog.Logger) (client.Client, error) {
	opts, err := TemporalClientOptions(cfg, log)
	if err != nil {
		return nil, err
	}
	tls := opts.ConnectionOptions.TLS != nil
	delay := 250 * time.Millisecond
	for {
		c, err := client.DialContext(ctx, opts)
		if err == nil {
			log.Info("connected to temporal", "address", cfg.TemporalAddress, "namespace", cfg.TemporalNamespace,
				"tls", tls, "api_key", opts.Credentials != nil, "payload_encryption", cfg.PayloadKeys != "")
			return c, nil
		}
		log.Warn("temporal not reachable yet", "address", cfg.TemporalAddress, "tls", tls, "err", err)
		select {
		case <-ctx.Done():
			return nil, fmt.Errorf("connect to temporal at %s: %w", cfg.TemporalAddress, err)
		case <-time.After(delay):
		}
		delay = min(delay*2, 5*time.Second)
	}
}

var sdkMetrics struct {
	once    sync.Once
	handler client.MetricsHandler
}

// SDKMetrics is the Temporal SDK's metrics handler (workflow task and
// activity latencies, schedule-to-start, pollers, failures) reporting to
// the default Prometheus registry, which /metrics serves. There is one per
// process: its series are registered once, however many clients dial.
func SDKMetrics() client.MetricsHandler {
	sdkMetrics.once.Do(func() {
		reporter := tallyprom.NewReporter(tallyprom.Options{
			Registerer:              prometheus.DefaultRegisterer,
			DefaultTimerType:        tallyprom.HistogramTimerType,
			DefaultHistogramBuckets: []float64{0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60},
			OnRegisterError: func(err error) {
				slog.Error("temporal sdk metric not registered", "err", err)
			},
		})
		scope, _ := tally.NewRootScope(tally.ScopeOptions{
			CachedReporter:  reporter,
			Separator:       tallyprom.DefaultSeparator,
			SanitizeOptions: &sdktally.PrometheusSanitizeOptions,
		}, time.Second)
		sdkMetrics.handler = sdktally.NewMetricsHandler(sdktally.NewPrometheusNamingScope(scope))
	})
	return sdkMetrics.handler
}
