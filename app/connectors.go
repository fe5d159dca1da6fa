package app

import (
	"log/slog"

	"github.com/ulule/limiter/v3"
	"github.com/ulule/limiter/v3/drivers/store/memory"

	"github.com/vigil-soc/vigil/connectors"
	"github.com/vigil-soc/vigil/connectors/configured"
	"github.com/vigil-soc/vigil/intel"
	"github.com/vigil-soc/vigil/outbound"
	"github.com/vigil-soc/vigil/settings"
	"github.com/vigil-soc/vigil/store"

	// Every vendor connector type this build offers.
	_ "github.com/vigil-soc/vigil/connectors/all"
)

// NewConnectorConfigs builds the service that turns stored connector
// configurations into connectors: secrets sealed with the settings' box,
// calls under the stored outbound policy, vendor quotas counted in quota
// (shared across processes when it is the Redis store; nil counts in this
// process), and the simulated set for every kind nothing else serves.
func NewConnectorConfigs(st *store.Store, svc *settings.Service, quota limiter.Store, log *slog.Logger) *configured.Service {
	if quota == nil {
		quota = memory.NewStore()
	}
	c := &configured.Service{Store: st, Policy: outbound.FromStore(st), Limit: connectors.Quota(quota),
		Simulated: NewConnectors(st), SimulatedIntel: intel.NewSimulated(), Log: log}
	if svc != nil {
		c.Box = svc.Box()
		// An outbound policy written here applies to vendor connectors at
		// once, not only after the next configuration check.
		svc.OnPut(func(key string) {
			if key == outbound.Setting {
				c.Invalidate()
			}
		})
	}
	return c
}
