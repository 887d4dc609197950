// Every module's kinds of scheduled report, registered with the scheduler (lib/scheduled-reports.ts).
// The app assembly imports this file.
import './alarm-reports/scheduled.js';
import './fleet/scheduled.js';
