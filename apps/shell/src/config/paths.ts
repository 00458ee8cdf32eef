/** Where the dashboard remote shows Account Settings (the account menu's link, and where a login lands when the password must change). */
export const ACCOUNT_SETTINGS_PATH = '/dashboard/account-settings';
