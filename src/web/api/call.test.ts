import { describe, expect, it } from 'vitest';
import { ApiRequestError, createCall, fieldErrorsOf, type Transport, type TransportRequest } from './call.ts';

/** Keeps what the call sent and answers as the server would have. */
function recording(status: number, body: unknown) {
  const sent: TransportRequest[] = [];
  const transport: Transport = {
    async send(request) {
      sent.push(request);
      return { status, body };
    },
  };
  return { sent, transport };
}

describe('call(name, input)', () => {
  it("takes the method and path from the endpoint's entry and fills in params, query and a JSON body", async () => {
    const { sent, transport } = recording(200, { ok: true });
    const call = createCall(transport, () => ({ 'x-auth-token': 't' }));
    await call('updateSection', { params: { id: 3 }, body: { name: 'Guides' } });
    await call('deleteSection', { params: { id: 4 }, query: { content: 'delete' } });
    expect(sent.map(({ method, url, body }) => ({ method, url, body }))).toEqual([
      { method: 'PATCH', url: '/api/admin/sections/3', body: '{"name":"Guides"}' },
      { method: 'DELETE', url: '/api/admin/sections/4?content=delete', body: undefined },
    ]);
    expect(sent[0]?.headers).toMatchObject({ 'content-type': 'application/json', 'x-auth-token': 't' });
  });

  it('sends a FormData as it is, for a multipart endpoint', async () => {
    const { sent, transport } = recording(201, { items: [] });
    const form = new FormData();
    await createCall(transport)('uploadContentFiles', { body: form });
    expect(sent[0]?.body).toBe(form);
    expect(sent[0]?.headers['content-type']).toBeUndefined();
  });

  it('throws ApiRequestError with the error body, whose field errors map to the form', async () => {
    const body = {
      status: 400,
      code: 'invalid_request',
      message: 'name is required',
      data: { errors: [{ field: 'body.name', message: 'is required' }] },
    };
    const { transport } = recording(400, body);
    const error = await createCall(transport)('createSection', { body: { name: '' } }).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(ApiRequestError);
    expect(error).toMatchObject({ status: 400, body, message: 'name is required' });
    expect(fieldErrorsOf(error)).toEqual({ name: 'is required' });
    expect(fieldErrorsOf(error, (field) => `form-${field}`)).toEqual({ 'form-name': 'is required' });
  });

  it('does not compile a call that pairs an endpoint with the wrong input or answer', () => {
    const call = createCall(recording(200, {}).transport);
    // Never run: the checks are the compiler's (tsc fails on any line below that compiles).
    const wrong = async () => {
      // @ts-expect-error the tree is not a number
      const tree: number = await call('getAdminTree');
      // @ts-expect-error updateSection needs its id
      await call('updateSection', { body: { name: 'x' } });
      // @ts-expect-error an instruction's id is a number
      await call('getInstruction', { params: { id: 'x' } });
      // @ts-expect-error the tree takes no body
      await call('getAdminTree', { body: { name: 'x' } });
      // @ts-expect-error a diff needs from and to
      await call('diffRevisions', { params: { id: 1 } });
      // @ts-expect-error no such endpoint
      await call('getNothing');
      return tree;
    };
    expect(typeof wrong).toBe('function');
  });
});
