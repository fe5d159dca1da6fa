package store

import (
	"maps"
	"slices"
	"strings"

	"gorm.io/gorm"
)

// updateNotifying applies changes (column to value, or to a gorm.Expr) to
// the rows of table matching where, and answers from the same statement
// whether an event of typ has a consumer (see notifying): a transaction
// that records an event after its change saves the round trip of asking.
// matched is false when no row matched.
func updateNotifying(tx *gorm.DB, table, where string, whereArgs []any, changes map[string]any, typ EventType) (matched, notify bool, err error) {
	var sql strings.Builder
	args := make([]any, 0, len(changes)+len(whereArgs)+4)
	sql.WriteString("UPDATE " + table + " SET ")
	for i, col := range slices.Sorted(maps.Keys(changes)) {
		if i > 0 {
			sql.WriteString(", ")
		}
		sql.WriteString(col + " = ?")
		args = append(args, changes[col])
	}
	consumers, consumerArgs := consumersExpr(typ)
	sql.WriteString(" WHERE " + where + " RETURNING " + consumers)
	args = append(append(args, whereArgs...), consumerArgs...)
	var out []bool
	if err := tx.Raw(sql.String(), args...).Scan(&out).Error; err != nil {
		return false, false, err
	}
	return len(out) > 0, len(out) > 0 && out[0], nil
}
