/** A chat message holds 500 characters; text only. Browser-safe. */
export const maxMessageLength = 500;
/** What the broadcaster's token needs: sending chat messages as the user. */
export const twitchScopes = ['user:write:chat'];
