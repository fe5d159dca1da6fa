package simulated

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"gorm.io/gorm"

	"github.com/vigil-soc/vigil/connectors"
	"github.com/vigil-soc/vigil/store"
)

// callRow is one performed connector call, keyed by its idempotency key.
type callRow struct {
	IdempotencyKey string `gorm:"primaryKey"`
	Connector      string
	Operation      string
	Request        store.JSON[map[string]any]
	Result         *store.JSON[connectors.Result]
	StartedAt      time.Time
	CompletedAt    *time.Time
}

func (callRow) TableName() string { return "sim_connector_calls" }

// Call is a recorded connector call, for tests and diagnostics.
type Call struct {
	Key         string            `json:"key"`
	Connector   string            `json:"connector"`
	Operation   string            `json:"operation"`
	Request     map[string]any    `json:"request"`
	Result      connectors.Result `json:"result"`
	StartedAt   time.Time         `json:"started_at"`
	CompletedAt *time.Time        `json:"completed_at,omitempty"`
}

// CallCount reports how many calls were recorded under key: 0 or 1, since
// the key is the primary key; a count is what idempotency tests assert on.
func CallCount(ctx context.Context, st *store.Store, key string) (int64, error) {
	var n int64
	err := st.DB().WithContext(ctx).Model(&callRow{}).Where("idempotency_key = ?", key).Count(&n).Error
	if err != nil {
		return 0, fmt.Errorf("count simulated calls: %w", err)
	}
	return n, nil
}

// Calls returns every recorded call, oldest first.
func Calls(ctx context.Context, st *store.Store) ([]Call, error) {
	var rows []callRow
	err := st.DB().WithContext(ctx).Order("started_at, idempotency_key").Find(&rows).Error
	if err != nil {
		return nil, fmt.Errorf("list simulated calls: %w", err)
	}
	out := make([]Call, len(rows))
	for i, r := range rows {
		out[i] = Call{Key: r.IdempotencyKey, Connector: r.Connector, Operation: r.Operation,
			Request: r.Request.V, StartedAt: r.StartedAt, CompletedAt: r.CompletedAt}
		if r.Result != nil {
			out[i].Result = r.Result.V
		}
	}
	return out, nil
}

// call names one state-changing operation and its arguments.
type call struct {
	key       string
	connector string
	operation string
	request   map[string]any
}

// effect performs an operation's state change inside the caller's
// transaction; now is the time the operation began.
type effect func(tx *gorm.DB, now time.Time) (connectors.Result, error)

// maxAttempts bounds re-runs after a uniqueness conflict on a state row.
const maxAttempts = 3

// perform runs do at most once per idempotency key. One transaction claims
// the key, applies the state change and stores the result, so either all of
// it happens or none of it does: a call retried after a crash either finds
// the stored result or starts afresh, and never acts twice.
func (b *backend) perform(ctx context.Context, c call, do effect) (connectors.Result, error) {
	if c.key == "" {
		return connectors.Result{}, connectors.Permanentf("%s %s: empty idempotency key", c.connector, c.operation)
	}
	for attempt := 1; ; attempt++ {
		var res connectors.Result
		err := b.db(ctx).Transaction(func(tx *gorm.DB) error {
			var err error
			res, err = b.performTx(tx, c, do)
			return err
		})
		// A duplicate key here comes from a state row (a message or host)
		// two different keys created at once; the re-run finds it.
		if errors.Is(err, gorm.ErrDuplicatedKey) && attempt < maxAttempts {
			continue
		}
		return res, err
	}
}

// performTx claims the key first: the usual call is a new one, and a key
// already claimed (a repeat, or a concurrent call that this insert waited
// for) is then read back.
func (b *backend) performTx(tx *gorm.DB, c call, do effect) (connectors.Result, error) {
	started := b.now()
	request := c.request
	if request == nil {
		request = map[string]any{}
	}
	row := callRow{IdempotencyKey: c.key, Connector: c.connector, Operation: c.operation,
		Request: store.NewJSON(request), StartedAt: started}
	// Claiming the key before acting makes a concurrent call with the same
	// key wait here until this transaction ends, then read its result.
	claimed, err := insertIfAbsent(tx, &row)
	if err != nil {
		return connectors.Result{}, fmt.Errorf("record %s call: %w", c.operation, err)
	}
	if !claimed {
		res, found, err := storedResult(tx, c)
		if err == nil && !found {
			err = fmt.Errorf("%s call %s: key claimed but no row found", c.operation, c.key)
		}
		return res, err
	}
	res, err := do(tx, started)
	if err != nil {
		return connectors.Result{}, err
	}
	res, err = finish(res)
	if err != nil {
		return connectors.Result{}, err
	}
	completed := b.now()
	err = tx.Model(&callRow{}).Where("idempotency_key = ?", c.key).
		Updates(map[string]any{"result": store.NewJSON(res), "completed_at": completed}).Error
	if err != nil {
		return connectors.Result{}, fmt.Errorf("store %s result: %w", c.operation, err)
	}
	return res, nil
}

// storedResult reads the result recorded under c.key. A key recorded for a
// different operation is a caller bug that retrying cannot fix.
func storedResult(tx *gorm.DB, c call) (connectors.Result, bool, error) {
	var row callRow
	err := tx.Take(&row, "idempotency_key = ?", c.key).Error
	switch {
	case errors.Is(err, gorm.ErrRecordNotFound):
		return connectors.Result{}, false, nil
	case err != nil:
		return connectors.Result{}, false, fmt.Errorf("look up call %s: %w", c.key, err)
	}
	if row.Connector != c.connector || row.Operation != c.operation {
		return connectors.Result{}, false, connectors.Permanentf(
			"idempotency key %s was already used for %s %s", c.key, row.Connector, row.Operation)
	}
	if row.Result == nil {
		return connectors.Result{}, false, fmt.Errorf("call %s has no stored result", c.key)
	}
	return row.Result.V, true, nil
}

// finish marks a result as simulated and passes it through JSON, so the
// first call returns exactly what a repeated call reads back.
func finish(res connectors.Result) (connectors.Result, error) {
	res.Message = messagePrefix + res.Message
	if res.Output == nil {
		res.Output = map[string]any{}
	}
	res.Output["simulated"] = true
	b, err := json.Marshal(res)
	if err != nil {
		return connectors.Result{}, fmt.Errorf("encode result: %w", err)
	}
	var out connectors.Result
	if err := json.Unmarshal(b, &out); err != nil {
		return connectors.Result{}, fmt.Errorf("decode result: %w", err)
	}
	return out, nil
}
