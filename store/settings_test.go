package store_test

import (
	"context"
	"errors"
	"testing"

	"github.com/vigil-soc/vigil/internal/testenv"
	"github.com/vigil-soc/vigil/store"
)

func TestSettingsPutGetList(t *testing.T) {
	st := testenv.OpenStore(t)
	ctx := context.Background()

	if _, err := st.GetSetting(ctx, "general"); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("unwritten setting: %v; want ErrNotFound", err)
	}
	if list, err := st.ListSettings(ctx); err != nil || len(list) != 0 {
		t.Fatalf("empty list: %v %v", list, err)
	}

	first, err := st.PutSetting(ctx, "rate_limits", map[string]any{"read_per_minute": 5}, "alice")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := st.PutSetting(ctx, "general", map[string]any{"instance_name": "SOC", "nested": map[string]any{"a": []any{"x"}}}, "bob"); err != nil {
		t.Fatal(err)
	}
	got, err := st.GetSetting(ctx, "general")
	if err != nil {
		t.Fatal(err)
	}
	if got.Value.V["instance_name"] != "SOC" || got.UpdatedBy != "bob" || got.UpdatedAt.IsZero() {
		t.Fatalf("get: %+v", got)
	}
	if nested, _ := got.Value.V["nested"].(map[string]any); nested == nil || nested["a"].([]any)[0] != "x" {
		t.Fatalf("nested JSON did not round-trip: %+v", got.Value.V)
	}

	second, err := st.PutSetting(ctx, "rate_limits", map[string]any{"write_per_minute": 7}, "carol")
	if err != nil {
		t.Fatal(err)
	}
	got, err = st.GetSetting(ctx, "rate_limits")
	if err != nil {
		t.Fatal(err)
	}
	if _, kept := got.Value.V["read_per_minute"]; kept || got.Value.V["write_per_minute"] != float64(7) {
		t.Fatalf("overwrite must replace the whole value: %+v", got.Value.V)
	}
	if got.UpdatedBy != "carol" || !got.UpdatedAt.Equal(second.UpdatedAt) || got.UpdatedAt.Before(first.UpdatedAt) {
		t.Fatalf("overwrite did not record its author and time: %+v", got)
	}

	list, err := st.ListSettings(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(list) != 2 || list[0].Key != "general" || list[1].Key != "rate_limits" {
		t.Fatalf("list must hold each key once, sorted: %+v", list)
	}

	empty, err := st.PutSetting(ctx, "llm", nil, "")
	if err != nil || empty.Value.V == nil {
		t.Fatalf("nil value must be stored as an empty object: %+v %v", empty, err)
	}
	if _, err := st.PutSetting(ctx, "", map[string]any{}, "x"); !errors.Is(err, store.ErrInvalid) {
		t.Fatalf("empty key: %v; want ErrInvalid", err)
	}
}
