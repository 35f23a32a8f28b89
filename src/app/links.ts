export const SYSTEM_STATUS_URL = 'https://status.switchboard.example';
export const DOCS_URL = 'https://docs.switchboard.example';
