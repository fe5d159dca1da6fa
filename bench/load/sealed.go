package main

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"go.temporal.io/sdk/client"

	"github.com/vigil-soc/vigil/payloadcodec"
	"github.com/vigil-soc/vigil/store"
)

// checkSealed fails unless the input of row 6w's first triage run reached
// the engine sealed, so a row reported as encrypted was.
func checkSealed(ctx context.Context, tc client.Client, db *sql.DB, dialect store.Dialect) error {
	runs, err := verdictRuns(ctx, db, dialect, time.Time{})
	if err != nil {
		return err
	}
	if len(runs) == 0 {
		return errors.New("payload encryption: no triage run to look at")
	}
	events, err := readHistory(ctx, tc, runs[0].WorkflowID)
	if err != nil {
		return err
	}
	payloads := events[0].GetWorkflowExecutionStartedEventAttributes().GetInput().GetPayloads()
	if len(payloads) == 0 {
		return fmt.Errorf("payload encryption: %s started without input", runs[0].WorkflowID)
	}
	if enc := string(payloads[0].GetMetadata()["encoding"]); enc != payloadcodec.Encoding {
		return fmt.Errorf("payload encryption: %s's input is %q, not %q", runs[0].WorkflowID, enc, payloadcodec.Encoding)
	}
	return nil
}
