package llm

import "context"

// CallsOut reports whether Analyze would ask the model now: an LLM is
// configured and enabled. Triage runs such an analysis as an activity of
// its own; otherwise the built-in rules answer in process.
func (a *Analyzer) CallsOut(ctx context.Context) bool {
	if a.Config == nil {
		return false
	}
	_, enabled, err := a.Config(ctx)
	return err == nil && enabled
}
