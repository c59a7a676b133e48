/// Every `quire` command, in the order `quire --help` lists them.
enum CommandRegistry {
    static let all: [Command.Type] = [
        InitCommand.self,
        NewCommand.self,
        ShowCommand.self,
        ListCommand.self,
        SearchCommand.self,
        TagsCommand.self,
        ProjectsCommand.self,
        IndexCommand.self,
        EditCommand.self,
        SetCommand.self,
        UnsetCommand.self,
        TagCommand.self,
        MoveCommand.self,
        RenameCommand.self,
        RemoveCommand.self,
        FoldersCommand.self,
        FolderAddCommand.self,
        FolderRenameCommand.self,
        FolderRemoveCommand.self,
        StatsCommand.self,
        RemoteCommand.self,
        HistoryCommand.self,
        RestoreCommand.self,
        CheckCommand.self,
    ]
}
