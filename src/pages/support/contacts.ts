export const SALES_EMAIL = 'sales@switchboard.example';
export const SUPPORT_EMAIL = 'support@switchboard.example';
