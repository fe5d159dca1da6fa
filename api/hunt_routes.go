package api

import (
	"net/http"

	"github.com/vigil-soc/vigil/store"
)

// registerHunts adds the hunt and data source routes (under /api/v1, as
// the SPEC shows them). Hunt writes need senior, data source writes admin.
func registerHunts(a *routes, s *server) {
	const (
		viewer, analyst, senior, admin = store.RoleViewer, store.RoleAnalyst, store.RoleSenior, store.RoleAdmin
		get, post, put, del            = http.MethodGet, http.MethodPost, http.MethodPut, http.MethodDelete
	)
	a.handle(Route{get, "/v1/hunts/queries/library", viewer, ScopeRead, LimitRead, ""}, s.huntLibrary)
	a.handle(Route{get, "/v1/hunts", viewer, ScopeRead, LimitRead, ""}, s.listHunts)
	a.handle(Route{post, "/v1/hunts", senior, ScopeWrite, LimitWrite, "hunt.create"}, s.createHunt)
	a.handle(Route{get, "/v1/hunts/:hunt_id", viewer, ScopeRead, LimitRead, ""}, s.getHunt)
	a.handle(Route{put, "/v1/hunts/:hunt_id", senior, ScopeWrite, LimitWrite, "hunt.update"}, s.updateHunt)
	a.handle(Route{del, "/v1/hunts/:hunt_id", senior, ScopeWrite, LimitWrite, "hunt.delete"}, s.deleteHunt)
	a.handle(Route{post, "/v1/hunts/:hunt_id/execute", senior, ScopeWrite, LimitTriage, "hunt.execute"}, s.executeHunt)
	a.handle(Route{post, "/v1/hunts/:hunt_id/schedule/trigger", senior, ScopeWrite, LimitTriage, "hunt.schedule_trigger"}, s.triggerSchedule)
	a.handle(Route{get, "/v1/hunts/:hunt_id/results", viewer, ScopeRead, LimitRead, ""}, s.huntResults)
	a.handle(Route{get, "/v1/hunts/:hunt_id/runs/:run_id", viewer, ScopeRead, LimitRead, ""}, s.getHuntRun)
	a.handle(Route{post, "/v1/hunts/:hunt_id/findings/:finding_id/promote", analyst, ScopeWrite, LimitWrite, "hunt.promote"}, s.promoteFinding)

	a.handle(Route{get, "/v1/data-sources", analyst, ScopeRead, LimitRead, ""}, s.listDataSources)
	a.handle(Route{post, "/v1/data-sources", admin, ScopeAdmin, LimitWrite, "data_source.create"}, s.putDataSource)
	a.handle(Route{get, "/v1/data-sources/:name", analyst, ScopeRead, LimitRead, ""}, s.getDataSource)
	a.handle(Route{put, "/v1/data-sources/:name", admin, ScopeAdmin, LimitWrite, "data_source.update"}, s.putDataSource)
	a.handle(Route{del, "/v1/data-sources/:name", admin, ScopeAdmin, LimitWrite, "data_source.delete"}, s.deleteDataSource)
	a.handle(Route{post, "/v1/data-sources/:name/test", admin, ScopeAdmin, LimitWrite, "data_source.test"}, s.testDataSource)
}
