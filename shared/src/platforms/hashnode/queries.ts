/** The GraphQL documents the Hashnode publisher sends (apidocs.hashnode.com), in one place. */

export const meQuery = `query Me {
  me {
    id
    username
    name
    profilePicture
    publications(first: 50) { edges { node { id title url } } }
  }
}`;

export const publishMutation = `mutation PublishPost($input: PublishPostInput!) {
  publishPost(input: $input) { post { id slug title url } }
}`;

export const draftMutation = `mutation CreateDraft($input: CreateDraftInput!) {
  createDraft(input: $input) { draft { id slug title } }
}`;

export const publicationQuery = `query Publication($id: ObjectId!) {
  publication(id: $id) { id title url }
}`;

export const recentQuery = `query Recent($id: ObjectId!) {
  publication(id: $id) {
    posts(first: 20) { edges { node { id title url publishedAt } } }
    drafts(first: 20) { edges { node { id title updatedAt } } }
  }
}`;
