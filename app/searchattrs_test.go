package app_test

import (
	"context"
	"strings"
	"testing"
	"time"

	enumspb "go.temporal.io/api/enums/v1"
	"go.temporal.io/api/operatorservice/v1"
	"go.temporal.io/api/workflowservice/v1"
	"google.golang.org/protobuf/types/known/durationpb"

	"github.com/vigil-soc/vigil/app"
	"github.com/vigil-soc/vigil/internal/testenv"
	"github.com/vigil-soc/vigil/workflows"
)

// TestEnsureSearchAttributesRegistersWhatIsMissing: a namespace created
// without Vigil's search attributes would leave every action run failing
// its workflow task at the first upsert; the worker registers them first.
func TestEnsureSearchAttributesRegistersWhatIsMissing(t *testing.T) {
	ctx := context.Background()
	tmp, err := testenv.StartTemporal(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer tmp.Stop()
	const ns = "bare-namespace"
	_, err = tmp.Client.WorkflowService().RegisterNamespace(ctx, &workflowservice.RegisterNamespaceRequest{
		Namespace: ns, WorkflowExecutionRetentionPeriod: durationpb.New(24 * time.Hour)})
	if err != nil {
		t.Fatal(err)
	}
	registered := func() map[string]bool {
		r, err := tmp.Client.OperatorService().ListSearchAttributes(ctx, &operatorservice.ListSearchAttributesRequest{Namespace: ns})
		if err != nil {
			return nil
		}
		got := map[string]bool{}
		for name := range r.GetCustomAttributes() {
			got[name] = true
		}
		return got
	}
	before := registered()
	for _, name := range workflows.SearchAttributeNames {
		if before[name] {
			t.Fatalf("%s already registered on a new namespace; the test proves nothing", name)
		}
	}
	// A new namespace reaches every service of the dev server after a moment.
	testenv.Eventually(t, 30*time.Second, func() bool {
		return app.EnsureSearchAttributes(ctx, tmp.Client, ns, testenv.Logger()) == nil
	}, "search attributes not registered on %s", ns)
	after := registered()
	for _, name := range workflows.SearchAttributeNames {
		if !after[name] {
			t.Errorf("%s not registered", name)
		}
	}
	if err := app.EnsureSearchAttributes(ctx, tmp.Client, ns, testenv.Logger()); err != nil {
		t.Fatalf("second run: %v", err)
	}
}

// TestEnsureSearchAttributesNamesMistypedOnes: an attribute registered
// with another type cannot be fixed by registering it again; the check
// says which one and what type it has.
func TestEnsureSearchAttributesNamesMistypedOnes(t *testing.T) {
	ctx := context.Background()
	tmp, err := testenv.StartTemporal(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer tmp.Stop()
	const ns = "mistyped-namespace"
	_, err = tmp.Client.WorkflowService().RegisterNamespace(ctx, &workflowservice.RegisterNamespaceRequest{
		Namespace: ns, WorkflowExecutionRetentionPeriod: durationpb.New(24 * time.Hour)})
	if err != nil {
		t.Fatal(err)
	}
	testenv.Eventually(t, 30*time.Second, func() bool {
		_, err := tmp.Client.OperatorService().AddSearchAttributes(ctx, &operatorservice.AddSearchAttributesRequest{
			Namespace: ns, SearchAttributes: map[string]enumspb.IndexedValueType{"Severity": enumspb.INDEXED_VALUE_TYPE_TEXT}})
		return err == nil
	}, "could not register Severity as Text")
	err = app.EnsureSearchAttributes(ctx, tmp.Client, ns, testenv.Logger())
	if err == nil || !strings.Contains(err.Error(), "Severity (Text)") || strings.Contains(err.Error(), "IncidentNumber") {
		t.Fatalf("error should name Severity and its type only: %v", err)
	}
}
