import { APP_ID_LENGTH } from "@symbolon/core";

/** Throws unless `appId` is a string of exactly 25 characters (spec §5). */
export function assertAppId(appId: unknown): asserts appId is string {
  if (typeof appId !== "string") {
    throw new Error(
      `PrivyProvider: appId must be a string of ${APP_ID_LENGTH} characters; got ${typeof appId}.`,
    );
  }
  if (appId.length !== APP_ID_LENGTH) {
    throw new Error(
      `PrivyProvider: appId must be exactly ${APP_ID_LENGTH} characters long; got ${appId.length} ("${appId}").`,
    );
  }
}
