package app

import (
	"context"
	"log/slog"

	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/interceptor"
)

// startLogger logs every workflow this process starts, with the context
// of the request that started it, so the request's id and the workflow's
// id meet in one log line.
type startLogger struct {
	interceptor.ClientInterceptorBase
	log *slog.Logger
}

func (l *startLogger) InterceptClient(next interceptor.ClientOutboundInterceptor) interceptor.ClientOutboundInterceptor {
	return &startLoggerOutbound{ClientOutboundInterceptorBase: interceptor.ClientOutboundInterceptorBase{Next: next}, log: l.log}
}

type startLoggerOutbound struct {
	interceptor.ClientOutboundInterceptorBase
	log *slog.Logger
}

func (o *startLoggerOutbound) ExecuteWorkflow(ctx context.Context, in *interceptor.ClientExecuteWorkflowInput) (client.WorkflowRun, error) {
	run, err := o.Next.ExecuteWorkflow(ctx, in)
	o.logged(ctx, in.WorkflowType, in.Options.ID, run, err)
	return run, err
}

func (o *startLoggerOutbound) SignalWithStartWorkflow(ctx context.Context, in *interceptor.ClientSignalWithStartWorkflowInput) (client.WorkflowRun, error) {
	run, err := o.Next.SignalWithStartWorkflow(ctx, in)
	o.logged(ctx, in.WorkflowType, in.Options.ID, run, err)
	return run, err
}

func (o *startLoggerOutbound) logged(ctx context.Context, wfType, id string, run client.WorkflowRun, err error) {
	if err != nil {
		o.log.WarnContext(ctx, "workflow start failed", "workflow_type", wfType, "workflow_id", id, "err", err)
		return
	}
	o.log.InfoContext(ctx, "workflow started", "workflow_type", wfType, "workflow_id", run.GetID(), "run_id", run.GetRunID())
}
