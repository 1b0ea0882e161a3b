import { inngestServeHandlers } from '@/server/jobs/inngest-serve';

// Inngest calls this endpoint to register and run Encore's job definitions (only when configured).
export const { GET, POST, PUT } = inngestServeHandlers();
