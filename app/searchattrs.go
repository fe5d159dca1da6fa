package app

import (
	"context"
	"fmt"
	"log/slog"
	"slices"
	"strings"

	enumspb "go.temporal.io/api/enums/v1"
	"go.temporal.io/api/operatorservice/v1"
	"go.temporal.io/sdk/client"

	"github.com/vigil-soc/vigil/workflows"
)

// EnsureSearchAttributes makes sure every search attribute Vigil's workflows
// set is registered on the namespace, registering the missing ones as
// Keyword. A workflow that upserts an unregistered attribute fails its
// workflow task until someone registers it, so a worker refuses to start
// instead, naming what to register, when it cannot do it itself (for
// example on a cluster where this client may not change the namespace).
func EnsureSearchAttributes(ctx context.Context, c client.Client, namespace string, log *slog.Logger) error {
	ops := c.OperatorService()
	have, err := ops.ListSearchAttributes(ctx, &operatorservice.ListSearchAttributesRequest{Namespace: namespace})
	if err != nil {
		return fmt.Errorf("cannot check Vigil's search attributes (%s) on namespace %s: %w",
			strings.Join(workflows.SearchAttributeNames, ", "), namespace, err)
	}
	var missing, mistyped []string
	for _, name := range workflows.SearchAttributeNames {
		kind, ok := have.GetCustomAttributes()[name]
		switch {
		case !ok:
			missing = append(missing, name)
		case kind != enumspb.INDEXED_VALUE_TYPE_KEYWORD:
			mistyped = append(mistyped, name+" ("+kind.String()+")")
		}
	}
	if len(mistyped) > 0 {
		return fmt.Errorf("namespace %s has the search attributes %s with another type than Keyword; Vigil needs them as Keyword: remove and recreate them",
			namespace, strings.Join(mistyped, ", "))
	}
	if len(missing) == 0 {
		return nil
	}
	add := make(map[string]enumspb.IndexedValueType, len(missing))
	for _, name := range missing {
		add[name] = enumspb.INDEXED_VALUE_TYPE_KEYWORD
	}
	_, err = ops.AddSearchAttributes(ctx, &operatorservice.AddSearchAttributesRequest{Namespace: namespace, SearchAttributes: add})
	if err != nil {
		slices.Sort(missing)
		return fmt.Errorf("namespace %s lacks the search attributes %s and they could not be registered (%w); register them as Keyword, e.g. temporal operator search-attribute create --namespace %s --name %s --type Keyword",
			namespace, strings.Join(missing, ", "), err, namespace, missing[0])
	}
	log.Info("registered search attributes", "namespace", namespace, "names", missing)
	return nil
}
