import type { Linter } from 'eslint';
export const RESTRICTED_UI_IMPORTS: { name: string; importNames?: string[]; message: string }[];
export const APP_WIDE_DIALOG_FILES: string[];
export const TABLE_WRAPPER_FILES: string[];
export const uiImportConfigs: Linter.Config[];
