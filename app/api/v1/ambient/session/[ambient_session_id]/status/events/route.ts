import { handlersFor } from '@/server/api';

export const dynamic = 'force-dynamic';
export const { GET, POST, PUT, PATCH, DELETE, HEAD, OPTIONS } = handlersFor('/api/v1/ambient/session/{ambient_session_id}/status/events');
