import { ERROR_CODES, SDKError } from '@lousho/core';
import { describe, expect, it } from 'vitest';
import { HTTP_TOOL_ERROR_CODES, HttpToolError, SsrfBlockedError } from '../src/index.js';

describe("the http tool's error codes", () => {
  it("are codes of core's ERROR_CODES, with the same values (docs/errors.md documents each there)", () => {
    for (const [name, value] of Object.entries(HTTP_TOOL_ERROR_CODES)) {
      expect(ERROR_CODES, `${name}: ${value}`).toHaveProperty(value, value);
      expect(value).toBe(`LOUSHO_HTTP_${name}`);
    }
  });

  it('its errors are SDKErrors with those codes', () => {
    const refused = new SsrfBlockedError('Refused.', '127.0.0.1');
    expect(refused).toBeInstanceOf(HttpToolError);
    expect(refused).toBeInstanceOf(SDKError);
    expect(refused.code).toBe(ERROR_CODES.LOUSHO_HTTP_DESTINATION_REFUSED);
  });
});
