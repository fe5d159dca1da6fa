package workflows

import "go.temporal.io/sdk/workflow"

// A run records a version marker for each change it asks about, and the SDK
// upserts a search attribute with each (TemporalChangeVersion), which the
// server indexes. The consolidated changes below each stand for every
// earlier change to one workflow: a run started since records that one
// marker instead of one per change, and takes the newest path of each.
// Runs recorded before it find no such marker and ask about the earlier
// changes one by one, as they did.
const (
	// changeTriageConsolidated stands for changeOperatorView and
	// changeTriageInProcess.
	changeTriageConsolidated = "triage-consolidated-1"
	// changeActionConsolidated stands for changeStoreDecisions,
	// changeOperatorView and changeUpdateDecisions.
	changeActionConsolidated = "action-consolidated-1"
	// changeActionLocalDecide stands for changeActionConsolidated and
	// decides by policy in a local activity, so an action that runs at
	// once takes one workflow task.
	changeActionLocalDecide = "action-consolidated-2"
)

// actionPaths are the paths an Action run takes, fixed by the changes it
// recorded when it started.
type actionPaths struct {
	// storeDecides: the run acts on decisions read back from the store.
	storeDecides bool
	// view: the run describes itself to the UI.
	view bool
	// updates: the run is woken by the decide update.
	updates bool
	// localDecide: the policy decision is a local activity.
	localDecide bool
}

// triageChanges reports whether the run describes itself to the UI and
// does its quick steps in one local activity.
func triageChanges(ctx workflow.Context) (view, inProcess bool) {
	if workflow.GetVersion(ctx, changeTriageConsolidated, workflow.DefaultVersion, 1) == 1 {
		return true, true
	}
	view = operatorView(ctx)
	return view, workflow.GetVersion(ctx, changeTriageInProcess, workflow.DefaultVersion, 1) == 1
}

// actionChanges reports the paths the run takes.
func actionChanges(ctx workflow.Context) actionPaths {
	if workflow.GetVersion(ctx, changeActionLocalDecide, workflow.DefaultVersion, 1) == 1 {
		return actionPaths{storeDecides: true, view: true, updates: true, localDecide: true}
	}
	if workflow.GetVersion(ctx, changeActionConsolidated, workflow.DefaultVersion, 1) == 1 {
		return actionPaths{storeDecides: true, view: true, updates: true}
	}
	storeDecides := workflow.GetVersion(ctx, changeStoreDecisions, workflow.DefaultVersion, 1) == 1
	return actionPaths{
		storeDecides: storeDecides,
		view:         storeDecides && operatorView(ctx),
		updates:      storeDecides && workflow.GetVersion(ctx, changeUpdateDecisions, workflow.DefaultVersion, 1) == 1,
	}
}
