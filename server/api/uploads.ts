import * as contract from '@/lib/contracts/routes/uploads';
import { bindRoute, StatusReply } from '../http/route';
import { readRawBody } from '../http/body';
import { createUpload } from '../domain/uploads/create-upload';
import { putUploadChunk } from '../domain/uploads/put-upload-chunk';
import { getUpload } from '../domain/uploads/get-upload';

export const uploadRoutes = [
  bindRoute(contract.createUpload, async ({ app, auth, params, body }) => new StatusReply(201, await createUpload(app, auth, params.ambient_session_id, body))),
  bindRoute(contract.putUploadChunk, async ({ app, auth, params, query, req }) =>
    putUploadChunk(app, auth, params.ambient_session_id, params.upload_id, query.offset, await readRawBody(req, app.config.bodyLimitBytes)),
  ),
  bindRoute(contract.getUpload, ({ app, auth, params }) => getUpload(app, auth, params.ambient_session_id, params.upload_id)),
];
