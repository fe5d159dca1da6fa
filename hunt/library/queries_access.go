package library

func intParam(name string, def int64, desc string) Param {
	return Param{Name: name, Type: "int", Default: def, Description: desc}
}

func strParam(name, def, desc string) Param {
	return Param{Name: name, Type: "string", Default: def, Description: desc}
}

const window = "ts >= :from AND ts < :to"

var queries = append(append(append(append([]Query{}, initialAccess...), executionPersistence...), credentialLateral...), collectionOnwards...)

var initialAccess = []Query{{
	ID: "ia-risky-attachment", Name: "Inbound mail with a risky attachment type", Category: CatInitialAccess,
	Description:     "Inbound messages carrying container or script attachments (ISO, IMG, LNK, HTA, JS, VBS, OneNote) often used to slip past mail filters.",
	MitreTechniques: []string{"T1566.001"}, Severity: "high", Keys: []string{"recipient", "message_id"},
	SQL: `SELECT message_id, ts, sender, recipient, subject, attachment_name
FROM email_events
WHERE ` + window + ` AND direction = 'inbound'
  AND LOWER(attachment_type) IN ('iso', 'img', 'lnk', 'hta', 'js', 'vbs', 'one')`,
	SPL: `search index=email sourcetype=email_events direction=inbound attachment_type IN ("iso","img","lnk","hta","js","vbs","one") | table message_id _time sender recipient subject attachment_name`,
}, {
	ID: "ia-lookalike-sender", Name: "Inbound mail from a look-alike domain", Category: CatInitialAccess,
	Description:     "Sender domains that contain the organisation's brand but are not its own domain, a common phishing lure.",
	MitreTechniques: []string{"T1566.002", "T1583.001"}, Severity: "medium", Keys: []string{"sender_domain"},
	Params: []Param{strParam("brand_pattern", "%examplecorp%", "LIKE pattern of the brand, lower case"),
		strParam("own_domain", "examplecorp.com", "the organisation's own mail domain")},
	SQL: `SELECT sender_domain, COUNT(*) AS messages, COUNT(DISTINCT recipient) AS recipients
FROM email_events
WHERE ` + window + ` AND direction = 'inbound'
  AND LOWER(sender_domain) LIKE :brand_pattern AND LOWER(sender_domain) <> :own_domain
GROUP BY sender_domain`,
	SPL: `search index=email sourcetype=email_events direction=inbound sender_domain=$brand_pattern$ sender_domain!=$own_domain$ | stats count AS messages dc(recipient) AS recipients BY sender_domain`,
}, {
	ID: "ia-remote-access-abroad", Name: "Successful VPN logon from outside the home country", Category: CatInitialAccess,
	Description:     "External remote service logons that succeed from an unexpected country may be stolen credentials in use.",
	MitreTechniques: []string{"T1133", "T1078"}, Severity: "high", Keys: []string{"user_name", "country"},
	Params: []Param{strParam("home_country", "US", "ISO country code logons are expected from")},
	SQL: `SELECT user_name, country, COUNT(*) AS logons, MIN(ts) AS first_seen, MAX(src_ip) AS src_ip
FROM auth_events
WHERE ` + window + ` AND app = 'vpn' AND result = 'success' AND country <> :home_country
GROUP BY user_name, country`,
	SPL: `search index=auth sourcetype=auth_events app=vpn result=success country!=$home_country$ | stats count AS logons min(_time) AS first_seen values(src_ip) AS src_ip BY user_name country`,
}}

var executionPersistence = []Query{{
	ID: "ex-office-spawns-shell", Name: "Office application starts a shell", Category: CatExecution,
	Description:     "Word, Excel, PowerPoint or Outlook starting a command interpreter or script host: a macro or exploit running.",
	MitreTechniques: []string{"T1204.002", "T1059"}, Severity: "high", Keys: []string{"host", "parent_name", "process_name"},
	SQL: `SELECT host, user_name, parent_name, process_name, command_line, ts
FROM process_events
WHERE ` + window + `
  AND LOWER(parent_name) IN ('winword.exe', 'excel.exe', 'powerpnt.exe', 'outlook.exe')
  AND LOWER(process_name) IN ('cmd.exe', 'powershell.exe', 'pwsh.exe', 'wscript.exe', 'cscript.exe', 'mshta.exe')`,
	SPL: `search index=edr sourcetype=process_events parent_name IN ("winword.exe","excel.exe","powerpnt.exe","outlook.exe") process_name IN ("cmd.exe","powershell.exe","pwsh.exe","wscript.exe","cscript.exe","mshta.exe") | table host user_name parent_name process_name command_line _time`,
}, {
	ID: "ex-encoded-powershell", Name: "PowerShell with an encoded command", Category: CatExecution,
	Description:     "PowerShell started with -EncodedCommand hides what it runs; legitimate tooling rarely needs it.",
	MitreTechniques: []string{"T1059.001", "T1027"}, Severity: "high", Keys: []string{"host", "command_line"},
	SQL: `SELECT host, user_name, parent_name, command_line, ts
FROM process_events
WHERE ` + window + ` AND LOWER(process_name) IN ('powershell.exe', 'pwsh.exe')
  AND (LOWER(command_line) LIKE '% -enc %' OR LOWER(command_line) LIKE '% -encodedcommand %' OR LOWER(command_line) LIKE '% -e %')`,
	SPL: `search index=edr sourcetype=process_events process_name IN ("powershell.exe","pwsh.exe") (command_line="* -enc *" OR command_line="* -encodedcommand *" OR command_line="* -e *") | table host user_name parent_name command_line _time`,
}, {
	ID: "ex-proxy-binary-remote", Name: "Signed binary proxy loads remote content", Category: CatExecution,
	Description:     "mshta, rundll32, regsvr32 or certutil given a URL: signed Windows binaries used to fetch and run code.",
	MitreTechniques: []string{"T1218.005", "T1218.010", "T1218.011", "T1105"}, Severity: "high", Keys: []string{"host", "process_name", "command_line"},
	SQL: `SELECT host, user_name, process_name, command_line, ts
FROM process_events
WHERE ` + window + ` AND LOWER(process_name) IN ('mshta.exe', 'rundll32.exe', 'regsvr32.exe', 'certutil.exe')
  AND (LOWER(command_line) LIKE '%http://%' OR LOWER(command_line) LIKE '%https://%')`,
	SPL: `search index=edr sourcetype=process_events process_name IN ("mshta.exe","rundll32.exe","regsvr32.exe","certutil.exe") (command_line="*http://*" OR command_line="*https://*") | table host user_name process_name command_line _time`,
}, {
	ID: "pe-scheduled-task", Name: "Scheduled task created from the command line", Category: CatPersistence,
	Description:     "schtasks /create by a user process; software installers rarely do this interactively.",
	MitreTechniques: []string{"T1053.005"}, Severity: "medium", Keys: []string{"host", "command_line"},
	SQL: `SELECT host, user_name, parent_name, command_line, ts
FROM process_events
WHERE ` + window + ` AND LOWER(process_name) = 'schtasks.exe' AND LOWER(command_line) LIKE '%/create%'`,
	SPL: `search index=edr sourcetype=process_events process_name="schtasks.exe" command_line="*/create*" | table host user_name parent_name command_line _time`,
}, {
	ID: "pe-run-key", Name: "Registry Run key added", Category: CatPersistence,
	Description:     "reg.exe adding a value under a CurrentVersion Run key makes a program start at every logon.",
	MitreTechniques: []string{"T1547.001"}, Severity: "high", Keys: []string{"host", "command_line"},
	SQL: `SELECT host, user_name, command_line, ts
FROM process_events
WHERE ` + window + ` AND LOWER(process_name) = 'reg.exe'
  AND LOWER(command_line) LIKE '% add %' AND LOWER(command_line) LIKE '%currentversion%run%'`,
	SPL: `search index=edr sourcetype=process_events process_name="reg.exe" command_line="* add *" command_line="*CurrentVersion*Run*" | table host user_name command_line _time`,
}, {
	ID: "pe-startup-folder", Name: "File dropped in a Startup folder", Category: CatPersistence,
	Description:     "A file created in a Start Menu Startup folder runs at logon.",
	MitreTechniques: []string{"T1547.001"}, Severity: "medium", Keys: []string{"host", "path"},
	SQL: `SELECT host, user_name, path, process_name, ts
FROM file_events
WHERE ` + window + ` AND action = 'create' AND LOWER(path) LIKE '%start menu%programs%startup%'`,
	SPL: `search index=edr sourcetype=file_events action=create path="*Start Menu*Programs*Startup*" | table host user_name path process_name _time`,
}}
