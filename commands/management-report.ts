import { defineCommand } from '../src/app/keyboard/define';
import { ROUTES, getHref } from '../src/app/paths';
import { CUSTOMER_ROUTES, focusedCustomerId } from '../src/app/features/customers/customer-tab-commands';
import { MANAGEMENT_FEATURE } from '../src/shared/schemas/management-report';

/**
 * The monthly management report (last month first): of the customer the focused tab shows, else of
 * all customers. Only while the feature ExportManagementReportPDF is on.
 */
export default defineCommand({
  id: 'alarm.management-report',
  title: 'Open Monthly Management Report',
  group: 'Alarm reports',
  permission: ROUTES.managementReport.permission,
  feature: MANAGEMENT_FEATURE,
  routes: CUSTOMER_ROUTES,
  keywords: ['management', 'monthly', 'report', 'pdf', 'print', 'month', 'compliance', 'targets'],
  run: (ctx) => {
    const customerId = focusedCustomerId(ctx);
    const href = customerId ? getHref('customerManagementReport', { customerId }) : getHref('managementReport');
    return ctx.openRoute(href, { beside: ctx.beside, focus: true });
  },
});
