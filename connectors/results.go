package connectors

import "time"

// The result shapes several vendors share, so every connector of a kind
// reports its operations with the same output fields.

// MessageResult is the Result of a message operation (quarantine, release)
// applied to copies copies of messageID, stamped now in timeField.
func MessageResult(msg, messageID, status, timeField string, copies int) Result {
	return Result{Success: true, Message: msg, Output: map[string]any{
		"message_id": messageID, "status": status, "copies": copies, timeField: time.Now().UTC().Format(time.RFC3339),
	}}
}

// IsolationResult is the Result of isolate_host: the documented output
// fields (isolation_id, host_id, hostname, isolated_at, status) and the
// vendor's own state of the request.
func IsolationResult(msg, isolationID, hostID, hostname string, at time.Time, vendorStatus string) Result {
	return Result{Success: true, Message: msg, Output: map[string]any{
		"isolation_id": isolationID, "host_id": hostID, "hostname": hostname,
		"isolated_at": at.UTC().Format(time.RFC3339), "status": HostIsolated, "vendor_status": vendorStatus,
	}}
}

// UserResult is the Result of an Identity operation on one account: its
// sign-in name, the provider's id for it, its state (UserEnabled or
// UserDisabled) after the operation, and any extra fields the operation
// reports.
func UserResult(msg, user, userID, status string, extra map[string]any) Result {
	out := map[string]any{"user": user, "user_id": userID, "status": status,
		"changed_at": time.Now().UTC().Format(time.RFC3339)}
	for k, v := range extra {
		out[k] = v
	}
	return Result{Success: true, Message: msg, Output: out}
}

// ReleaseResult is the Result of unisolate_host. A zero at (nothing was
// requested, the host was not isolated) leaves out the time and the
// vendor's state.
func ReleaseResult(msg, hostID, hostname string, at time.Time, vendorStatus string) Result {
	out := map[string]any{"host_id": hostID, "hostname": hostname, "status": HostActive}
	if !at.IsZero() {
		out["unisolated_at"], out["vendor_status"] = at.UTC().Format(time.RFC3339), vendorStatus
	}
	return Result{Success: true, Message: msg, Output: out}
}
