package library

var credentialLateral = []Query{{
	ID: "ca-brute-force", Name: "Many failed logons for one account", Category: CatCredentialAccess,
	Description:     "An account with at least min_failures failed logons in the window: password guessing.",
	MitreTechniques: []string{"T1110.001"}, Severity: "medium", Keys: []string{"user_name"},
	Params: []Param{intParam("min_failures", 10, "failed logons for one account that count as guessing")},
	SQL: `SELECT user_name, COUNT(*) AS failures, COUNT(DISTINCT src_ip) AS sources, MAX(ts) AS last_seen
FROM auth_events
WHERE ` + window + ` AND result = 'failure'
GROUP BY user_name
HAVING COUNT(*) >= :min_failures`,
	SPL: `search index=auth sourcetype=auth_events result=failure | stats count AS failures dc(src_ip) AS sources max(_time) AS last_seen BY user_name | where failures >= $min_failures$`,
}, {
	ID: "ca-password-spray", Name: "One source fails against many accounts", Category: CatCredentialAccess,
	Description:     "A source address with failed logons for at least min_users distinct accounts: password spraying.",
	MitreTechniques: []string{"T1110.003"}, Severity: "high", Keys: []string{"src_ip"},
	Params: []Param{intParam("min_users", 5, "distinct accounts one source must fail against")},
	SQL: `SELECT src_ip, COUNT(DISTINCT user_name) AS users, COUNT(*) AS failures
FROM auth_events
WHERE ` + window + ` AND result = 'failure'
GROUP BY src_ip
HAVING COUNT(DISTINCT user_name) >= :min_users`,
	SPL: `search index=auth sourcetype=auth_events result=failure | stats dc(user_name) AS users count AS failures BY src_ip | where users >= $min_users$`,
}, {
	ID: "ca-lsass-dump", Name: "LSASS memory dump", Category: CatCredentialAccess,
	Description:     "A process other than LSASS itself naming lsass or calling MiniDump (procdump, comsvcs.dll): credential dumping.",
	MitreTechniques: []string{"T1003.001"}, Severity: "critical", Keys: []string{"host", "command_line"},
	SQL: `SELECT host, user_name, process_name, command_line, ts
FROM process_events
WHERE ` + window + ` AND LOWER(process_name) <> 'lsass.exe'
  AND (LOWER(command_line) LIKE '%minidump%' OR LOWER(command_line) LIKE '%lsass%')`,
	SPL: `search index=edr sourcetype=process_events process_name!="lsass.exe" (command_line="*minidump*" OR command_line="*lsass*") | table host user_name process_name command_line _time`,
}, {
	ID: "lm-psexec", Name: "PsExec service on a host", Category: CatLateralMovement,
	Description:     "PSEXESVC running or starting children: remote execution over SMB admin shares.",
	MitreTechniques: []string{"T1569.002", "T1021.002"}, Severity: "high", Keys: []string{"host"},
	SQL: `SELECT host, COUNT(*) AS processes, MIN(ts) AS first_seen, MAX(user_name) AS user_name
FROM process_events
WHERE ` + window + ` AND (LOWER(parent_name) = 'psexesvc.exe' OR LOWER(process_name) = 'psexesvc.exe')
GROUP BY host`,
	SPL: `search index=edr sourcetype=process_events (parent_name="psexesvc.exe" OR process_name="psexesvc.exe") | stats count AS processes min(_time) AS first_seen values(user_name) AS user_name BY host`,
}, {
	ID: "lm-rdp-fan-out", Name: "One host opens RDP to many hosts", Category: CatLateralMovement,
	Description:     "A host connecting to TCP 3389 on at least min_targets distinct addresses: interactive lateral movement.",
	MitreTechniques: []string{"T1021.001"}, Severity: "high", Keys: []string{"host"},
	Params: []Param{intParam("min_targets", 5, "distinct RDP destinations from one host")},
	SQL: `SELECT host, COUNT(DISTINCT dst_ip) AS targets, COUNT(*) AS connections
FROM network_events
WHERE ` + window + ` AND dst_port = 3389
GROUP BY host
HAVING COUNT(DISTINCT dst_ip) >= :min_targets`,
	SPL: `search index=network sourcetype=network_events dst_port=3389 | stats dc(dst_ip) AS targets count AS connections BY host | where targets >= $min_targets$`,
}, {
	ID: "lm-wmi-remote-exec", Name: "WMIC process creation on a remote node", Category: CatLateralMovement,
	Description:     "wmic /node:<host> process call create starts a process on another machine.",
	MitreTechniques: []string{"T1047"}, Severity: "high", Keys: []string{"host", "command_line"},
	SQL: `SELECT host, user_name, command_line, ts
FROM process_events
WHERE ` + window + ` AND LOWER(process_name) = 'wmic.exe'
  AND LOWER(command_line) LIKE '%/node:%' AND LOWER(command_line) LIKE '%process call create%'`,
	SPL: `search index=edr sourcetype=process_events process_name="wmic.exe" command_line="*/node:*" command_line="*process call create*" | table host user_name command_line _time`,
}}

var collectionOnwards = []Query{{
	ID: "co-encrypted-archive", Name: "Password-protected archive created", Category: CatCollection,
	Description:     "7-Zip or RAR adding files with a password: staging data for theft.",
	MitreTechniques: []string{"T1560.001"}, Severity: "medium", Keys: []string{"host", "command_line"},
	SQL: `SELECT host, user_name, process_name, command_line, ts
FROM process_events
WHERE ` + window + ` AND LOWER(process_name) IN ('7z.exe', '7za.exe', 'rar.exe', 'winrar.exe')
  AND LOWER(command_line) LIKE '% a %' AND LOWER(command_line) LIKE '% -p%'`,
	SPL: `search index=edr sourcetype=process_events process_name IN ("7z.exe","7za.exe","rar.exe","winrar.exe") command_line="* a *" command_line="* -p*" | table host user_name process_name command_line _time`,
}, {
	ID: "co-mass-file-read", Name: "One account reads many files", Category: CatCollection,
	Description:     "An account reading at least min_files files in the window, typical of collection from shares.",
	MitreTechniques: []string{"T1005", "T1039"}, Severity: "medium", Keys: []string{"user_name", "host"},
	Params: []Param{intParam("min_files", 200, "files read by one account on one host")},
	SQL: `SELECT user_name, host, COUNT(*) AS file_reads, COUNT(DISTINCT extension) AS extensions
FROM file_events
WHERE ` + window + ` AND action = 'read'
GROUP BY user_name, host
HAVING COUNT(*) >= :min_files`,
	SPL: `search index=edr sourcetype=file_events action=read | stats count AS file_reads dc(extension) AS extensions BY user_name host | where file_reads >= $min_files$`,
}, {
	ID: "co-forward-external", Name: "Mail forwarded to an outside mailbox", Category: CatCollection,
	Description:     "A mailbox forwarding at least min_forwards messages to a domain other than the organisation's.",
	MitreTechniques: []string{"T1114.003"}, Severity: "high", Keys: []string{"sender", "recipient"},
	Params: []Param{intParam("min_forwards", 5, "forwarded messages to one outside mailbox"),
		strParam("own_domain", "examplecorp.com", "the organisation's own mail domain")},
	SQL: `SELECT sender, recipient, COUNT(*) AS forwards
FROM email_events
WHERE ` + window + ` AND direction = 'outbound' AND LOWER(subject) LIKE 'fw%'
  AND LOWER(recipient_domain) <> :own_domain
GROUP BY sender, recipient
HAVING COUNT(*) >= :min_forwards`,
	SPL: `search index=email sourcetype=email_events direction=outbound subject="FW*" recipient_domain!=$own_domain$ | stats count AS forwards BY sender recipient | where forwards >= $min_forwards$`,
}, {
	ID: "c2-beaconing", Name: "Regular small connections to one destination", Category: CatCommandControl,
	Description:     "A host making at least min_connections connections to one external address with small requests: a beacon.",
	MitreTechniques: []string{"T1071.001", "T1573"}, Severity: "high", Keys: []string{"host", "dst_ip"},
	Params: []Param{intParam("min_connections", 50, "connections from one host to one address"),
		intParam("max_avg_bytes", 2000, "largest average bytes sent per connection")},
	SQL: `SELECT host, dst_ip, COUNT(*) AS connections, AVG(bytes_out) AS avg_bytes_out
FROM network_events
WHERE ` + window + ` AND direction = 'outbound'
GROUP BY host, dst_ip
HAVING COUNT(*) >= :min_connections AND AVG(bytes_out) <= :max_avg_bytes`,
	SPL: `search index=network sourcetype=network_events direction=outbound | stats count AS connections avg(bytes_out) AS avg_bytes_out BY host dst_ip | where connections >= $min_connections$ AND avg_bytes_out <= $max_avg_bytes$`,
}, {
	ID: "c2-nxdomain-burst", Name: "Burst of failed DNS lookups", Category: CatCommandControl,
	Description:     "A host with at least min_nxdomain NXDOMAIN answers, typical of a domain generation algorithm.",
	MitreTechniques: []string{"T1568.002"}, Severity: "medium", Keys: []string{"host"},
	Params: []Param{intParam("min_nxdomain", 30, "NXDOMAIN answers for one host")},
	SQL: `SELECT host, COUNT(*) AS nxdomain, COUNT(DISTINCT query) AS names
FROM dns_events
WHERE ` + window + ` AND response_code = 'NXDOMAIN'
GROUP BY host
HAVING COUNT(*) >= :min_nxdomain`,
	SPL: `search index=dns sourcetype=dns_events response_code=NXDOMAIN | stats count AS nxdomain dc(query) AS names BY host | where nxdomain >= $min_nxdomain$`,
}, {
	ID: "c2-dns-tunnel", Name: "Very long DNS names", Category: CatCommandControl,
	Description:     "Queries of at least min_length characters carry data in the name: DNS tunnelling.",
	MitreTechniques: []string{"T1071.004", "T1048.003"}, Severity: "high", Keys: []string{"host", "query"},
	Params: []Param{intParam("min_length", 60, "characters in a query name")},
	SQL: `SELECT host, query, query_type, ts
FROM dns_events
WHERE ` + window + ` AND LENGTH(query) >= :min_length`,
	SPL: `search index=dns sourcetype=dns_events | eval query_length=len(query) | where query_length >= $min_length$ | table host query query_type _time`,
}, {
	ID: "exf-large-upload", Name: "Large upload to an outside address", Category: CatExfiltration,
	Description:     "A host sending at least min_bytes to one address outside the private ranges.",
	MitreTechniques: []string{"T1048", "T1041"}, Severity: "high", Keys: []string{"host", "dst_ip"},
	Params: []Param{intParam("min_bytes", 104857600, "bytes sent to one outside address")},
	SQL: `SELECT host, dst_ip, SUM(bytes_out) AS bytes_out, COUNT(*) AS connections
FROM network_events
WHERE ` + window + ` AND direction = 'outbound'
  AND dst_ip NOT LIKE '10.%' AND dst_ip NOT LIKE '192.168.%' AND dst_ip NOT LIKE '172.16.%'
GROUP BY host, dst_ip
HAVING SUM(bytes_out) >= :min_bytes`,
	SPL: `search index=network sourcetype=network_events direction=outbound NOT dst_ip IN ("10.*","192.168.*","172.16.*") | stats sum(bytes_out) AS bytes_out count AS connections BY host dst_ip | where bytes_out >= $min_bytes$`,
}, {
	ID: "exf-file-sharing-upload", Name: "Upload to a file-sharing service", Category: CatExfiltration,
	Description:     "Outbound transfer of at least min_bytes to public file-sharing services the organisation does not use.",
	MitreTechniques: []string{"T1567.002"}, Severity: "high", Keys: []string{"host", "dst_domain"},
	Params: []Param{intParam("min_bytes", 10485760, "bytes sent to the service")},
	SQL: `SELECT host, dst_domain, SUM(bytes_out) AS bytes_out
FROM network_events
WHERE ` + window + ` AND LOWER(dst_domain) IN ('mega.nz', 'transfer.sh', 'file.io', 'anonfiles.com', 'gofile.io')
GROUP BY host, dst_domain
HAVING SUM(bytes_out) >= :min_bytes`,
	SPL: `search index=network sourcetype=network_events dst_domain IN ("mega.nz","transfer.sh","file.io","anonfiles.com","gofile.io") | stats sum(bytes_out) AS bytes_out BY host dst_domain | where bytes_out >= $min_bytes$`,
}, {
	ID: "exf-rclone", Name: "Rclone copying to a remote", Category: CatExfiltration,
	Description:     "rclone copy or sync, a favourite of ransomware crews for bulk theft to cloud storage.",
	MitreTechniques: []string{"T1567.002", "T1020"}, Severity: "critical", Keys: []string{"host", "command_line"},
	SQL: `SELECT host, user_name, command_line, ts
FROM process_events
WHERE ` + window + ` AND (LOWER(process_name) = 'rclone.exe'
  OR LOWER(command_line) LIKE '%rclone% copy %' OR LOWER(command_line) LIKE '%rclone% sync %')`,
	SPL: `search index=edr sourcetype=process_events (process_name="rclone.exe" OR command_line="*rclone* copy *" OR command_line="*rclone* sync *") | table host user_name command_line _time`,
}}
