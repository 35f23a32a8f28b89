/** Whether a request URL is for the development provider mounted at mountPath (e.g. /dev-idp). */
export function mountMatcher(mountPath: string): (url: string | undefined) => boolean {
  return (url) => !!url && (url === mountPath || url.startsWith(`${mountPath}/`) || url.startsWith(`${mountPath}?`));
}
