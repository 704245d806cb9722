from vaultd.entry import main

main()
