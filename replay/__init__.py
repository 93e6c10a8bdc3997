"""Rules engines that re-run recorded hands: tiles are small ints inside, codes at the edges."""
