/** Recording a client's traffic through the recorder in front of an embedded mock, stopped afterwards. */
import { type MockOptions, startMock } from '../../mock/server.ts';
import { startRecorder } from '../../recorder/proxy.ts';
import { TOKEN } from './helpers.ts';

export async function recordMock<T>(
  cassette: string,
  mock: Partial<MockOptions>,
  traffic: (baseUrl: string) => Promise<T>,
): Promise<T> {
  const m = await startMock({ token: TOKEN, ...mock });
  const rec = await startRecorder({
    mode: 'record',
    cassette,
    upstream: { baseUrl: m.baseUrl, deployment: 'embedded' },
    env: { FLIS_TOKEN: TOKEN },
  });
  try {
    return await traffic(rec.baseUrl);
  } finally {
    await rec.close();
    await m.close();
  }
}
