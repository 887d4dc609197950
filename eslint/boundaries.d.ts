import type { Rule } from 'eslint';
export function violation(fromFile: string, spec: string, typeOnly?: boolean): string | null;
export const boundaries: Rule.RuleModule;
declare const plugin: { rules: { boundaries: Rule.RuleModule } };
export default plugin;
